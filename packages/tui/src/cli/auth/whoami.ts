// `portal whoami`: show who is signed in, on which API, with which accounts.
import { MESSAGES, readClaims } from '@portal/core';
import { CliError, EXIT } from '../errors';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'whoami',
  summary: 'Show who is signed in, on which API, with which accounts',
  examples: ['portal whoami', 'portal whoami --json'],
};

export type WhoamiOptions = Record<string, never>;

export async function run(_opts: WhoamiOptions, s: Session): Promise<void> {
  const tokens = await s.tokens();
  const token = tokens.get();
  if (!token) throw new CliError(`${MESSAGES.tokenMissing}: ${await s.signInHint()}`, EXIT.auth);
  const clients = await s.clients();
  const claims = readClaims(tokens.get() ?? token) ?? {};
  const api = await s.baseUrl();
  const who = { email: String(claims.email ?? ''), username: String(claims.username ?? ''), api, clients };
  s.out.object(who, [
    ['Email', who.email],
    ['Username', who.username],
    ['API', api],
    ['Accounts', clients.map((c) => `${c.name} (${c.stamp})`).join(', ')],
  ]);
}
