// `portal logout`: see its summary.
import { signIns, defaultOriginOf, makeDefault } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'logout',
  summary: 'Sign out of one server (--api, else the default one): ends the session there and removes its stored token',
  examples: ['portal logout', 'portal logout --api https://staging.example.com'],
};

export type LogoutOptions = Record<string, never>;

export async function run(_opts: LogoutOptions, s: Session): Promise<void> {
  const store = await s.store();
  const base = await s.baseUrl();
  const host = store.host(base);
  // The stored token's session ends on the server, so a copy of the token (a backup, another shell) is worthless too.
  if (host.tokens.get()) {
    const api = await s.deps.makeApi({ ...(await s.apiOptions()), tokens: host.tokens });
    const { ended, error } = await api.logout();
    if (!ended) s.out.notice(`The server could not end the session (${error?.detail}): the token is removed here and expires on its own.`);
  }
  // Every other server's sign-in stays; signing out of the default one makes another signed-in server (or none)
  // the default, so the next command does not go to a server with no sign-in.
  const wasDefault = host.origin === defaultOriginOf(store);
  store.forget(base);
  const others = wasDefault ? signIns(store, '', s.deps.now()) : [];
  s.out.done(
    { ok: true, origin: host.origin, default: wasDefault ? (others[0]?.origin ?? null) : defaultOriginOf(store) },
    `Signed out of ${host.origin}`,
  );
  if (wasDefault) makeDefault(s, store, others[0] ?? null);
  if (s.deps.env.PORTAL_TOKEN) s.out.notice('PORTAL_TOKEN is still set in your environment and is used while it is.');
}
