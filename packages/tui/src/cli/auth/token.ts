// `portal auth token`: print the token of the current server (PORTAL_TOKEN when set), for scripts.
import { MESSAGES } from '@portal/core';
import { CliError, EXIT } from '../errors';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'token',
  summary: 'Print the token of the current server (PORTAL_TOKEN when set), for scripts',
  examples: ['portal auth token', 'curl -H "Authorization: Bearer $(portal auth token)" http://localhost:8080/api/user/permission'],
};

export type TokenOptions = Record<string, never>;

export async function run(_opts: TokenOptions, s: Session): Promise<void> {
  const token = (await s.tokens()).get();
  if (!token) throw new CliError(`${MESSAGES.tokenMissing}: ${await s.signInHint()}`, EXIT.auth);
  s.deps.stdout.write(`${token}\n`);
}
