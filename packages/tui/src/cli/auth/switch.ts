// `portal auth switch`: see its summary.
import { MESSAGES } from '@portal/core';
import { originOf } from '../../store';
import { CliError, EXIT, usageError } from '../errors';
import { SignIn, signIns, defaultOriginOf, who, makeDefault } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'switch',
  summary: 'Change the default server to another one you are signed in to (--api ORIGIN, else the other one, or a choice)',
  examples: ['portal auth switch', 'portal auth switch --api https://staging.example.com'],
};

export type SwitchSignInOptions = Record<string, never>;

export async function run(_opts: SwitchSignInOptions, s: Session): Promise<void> {
  const store = await s.store();
  const current = defaultOriginOf(store);
  const list = signIns(store, current, s.deps.now());
  if (list.length === 0) throw new CliError(`${MESSAGES.tokenMissing}: not signed in to any server (portal login)`, EXIT.auth);
  let next: SignIn | undefined;
  let base: string | undefined;
  if (s.opts.api) {
    base = await s.baseUrl();
    const wanted = originOf(await s.baseUrl());
    next = list.find((i) => i.origin === wanted);
    if (!next) throw new CliError(`Not signed in to ${wanted}: sign in with portal login --api ${wanted}`, EXIT.auth);
  } else {
    const others = list.filter((i) => !i.default);
    if (others.length === 0) throw new CliError(`${current} is the only server you are signed in to: it stays the default.`);
    if (others.length === 1) next = others[0];
    else if (!s.interactive) throw usageError(`Choose the server with --api ORIGIN, one of: ${others.map((i) => i.origin).join(', ')}`);
    else {
      s.out.notice(others.map((i, n) => `  ${n + 1}. ${i.origin} (${who(i)})`).join('\n'));
      const answer = (await s.deps.prompter!.ask(`Default server (1-${others.length}): `)).trim();
      next = others[Number(answer) - 1];
      if (!/^\d+$/.test(answer) || !next) throw new CliError('Cancelled', EXIT.usage);
    }
  }
  makeDefault(s, store, next!, base);
  await s.save();
  if (s.out.json) s.out.printJson({ ...next, default: true });
}
