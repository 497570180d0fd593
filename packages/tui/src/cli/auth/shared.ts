// What the auth verbs share.
import {
  readClaims,
  tokenExpiry,
  loadStartFacts,
  nextStartStep,
  showsGetStarted,
  startDismissKey,
  startSteps,
  type ApiClient,
  type Client,
} from '@portal/core';
import type { Session } from '../context';
import { time as formatTime } from '../common';
import { DEFAULT_API, originOf, type Store } from '../../store';
import type { Flag } from '../verb';

/** The account's email, for signing in, signing up and asking for a reset link. */
export const EMAIL_FLAG: Flag = { flags: '--email <email>', description: 'your email address' };

/** After a sign-in: the API base used becomes the default, and the account is kept when there is only one. */
export async function remember(s: Session, clients: { stamp: string }[]): Promise<void> {
  const store = await s.store();
  if (s.opts.api || s.deps.env.PORTAL_API) store.set('api', await s.baseUrl());
  const host = await s.host();
  host.set('client', clients.length === 1 ? clients[0].stamp : undefined);
  host.set('project', undefined);
}

/**
 * After a sign-in on an account still on its way to a first result: the next "Get started" step and its command
 * (core's steps, the same as the web's page and the terminal UI's first screen). Best effort: a sign-in never fails
 * for it, and a path put away in the terminal UI stays away.
 */
export async function printNextStep(s: Session, api: ApiClient, token: string, clients: readonly Client[]): Promise<void> {
  const client = clients[0];
  if (!client || s.out.json) return;
  try {
    const steps = startSteps(await loadStartFacts(api, client));
    const key = startDismissKey(String(readClaims(token)?.sub ?? ''), client.stamp);
    const next = nextStartStep(steps);
    if (!next || !showsGetStarted(steps, (await s.host()).startDismissals.get(key))) return;
    s.out.notice(`Next: ${next.label.toLowerCase()}: ${next.command}`);
  } catch {
    // The hint is extra: the sign-in itself is done.
  }
}

/** One stored sign-in as `portal auth status` shows it. */
export interface SignIn {
  origin: string;
  email: string | null;
  username: string | null;
  /** Epoch seconds, or null when the token carries no expiry. */
  expiresAt: number | null;
  expired: boolean;
  /** The origin used when neither --api nor PORTAL_API says. */
  default: boolean;
  /** Where the token comes from: the config file, or the PORTAL_TOKEN variable (which then wins). */
  source: 'config' | 'PORTAL_TOKEN';
}

export function signIn(origin: string, token: string, nowMs: number, isDefault: boolean, source: SignIn['source']): SignIn {
  const claims = readClaims(token) ?? {};
  const expiresAt = tokenExpiry(token);
  return {
    origin,
    email: typeof claims.email === 'string' ? claims.email : null,
    username: typeof claims.username === 'string' ? claims.username : null,
    expiresAt,
    expired: expiresAt !== null && expiresAt * 1000 <= nowMs,
    default: isDefault,
    source,
  };
}

export function signIns(store: Store, defaultOrigin: string, nowMs: number): SignIn[] {
  return store
    .hosts()
    .filter(([, entry]) => !!entry.token)
    .map(([origin, entry]) => signIn(origin, entry.token!, nowMs, origin === defaultOrigin, 'config'));
}

export const defaultOriginOf = (store: Store) => originOf(store.get('api') ?? DEFAULT_API);
export const who = (i: SignIn) => [i.email, i.username && `(${i.username})`].filter(Boolean).join(' ') || 'a client API key';

/** Makes this origin the default server (null: none, back to the built-in default) and says which. */
export function makeDefault(s: Session, store: Store, next: SignIn | null, base?: string): void {
  store.set('api', next ? (base ?? next.origin) : undefined);
  s.out.notice(
    next
      ? `The default server is now ${next.origin} (${who(next)}).`
      : `No other server is signed in: the default is now none (${DEFAULT_API} until you sign in with portal login --api ORIGIN).`,
  );
}

export function expiry(i: SignIn, nowMs: number): string {
  if (i.expiresAt === null) return 'no expiry';
  if (i.expired) return `expired ${formatTime(i.expiresAt)}`;
  const minutes = Math.round((i.expiresAt * 1000 - nowMs) / 60_000);
  const left = minutes >= 120 ? `${Math.round(minutes / 60)} h` : `${minutes} min`;
  return `${formatTime(i.expiresAt)} (in ${left})`;
}
