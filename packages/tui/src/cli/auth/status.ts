// `portal auth status`: list the servers you are signed in to: origin, user and token expiry (* marks the default).
import { MESSAGES } from '@portal/core';
import { originOf } from '../../store';
import { CliError, EXIT } from '../errors';
import { SignIn, signIn, signIns, defaultOriginOf, who, expiry } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'status',
  summary: 'List the servers you are signed in to: origin, user and token expiry (* marks the default)',
  examples: ['portal auth status', "portal auth status --json --jq '.[].origin'"],
};

export type StatusOptions = Record<string, never>;

export async function run(_opts: StatusOptions, s: Session): Promise<void> {
  const store = await s.store();
  const now = s.deps.now();
  const fromEnv = s.envToken();
  const origin = originOf(await s.baseUrl());
  const list = [
    ...(fromEnv ? [signIn(origin, fromEnv, now, true, 'PORTAL_TOKEN')] : []),
    ...signIns(store, fromEnv ? '' : defaultOriginOf(store), now),
  ];
  if (list.length === 0 && !s.out.json)
    throw new CliError(`${MESSAGES.tokenMissing}: not signed in to any server (portal login)`, EXIT.auth);
  if (fromEnv)
    s.out.notice(`Using the token in PORTAL_TOKEN for ${origin} (${who(list[0])}): the stored sign-ins are not used while it is set.`);
  s.out.list<SignIn>(
    list,
    [
      { header: '', get: (i) => (i.default ? '*' : ' ') },
      { header: 'Origin', get: (i) => i.origin },
      { header: 'User', get: who },
      { header: 'Token', get: (i) => (i.source === 'PORTAL_TOKEN' ? 'PORTAL_TOKEN' : 'stored') },
      { header: 'Token expires', get: (i) => expiry(i, now) },
    ],
    '',
  );
}
