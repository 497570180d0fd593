// Where `portal` keeps its sign-ins: conf's JSON file in the user's config folder, mode 0600. Credentials are kept per
// API origin (as gh keeps them per host): each origin has its own token and default account and project, and a token
// is only ever handed to a client for the origin it came from. `api` is the origin used when neither --api nor
// PORTAL_API says. Reads go straight to the file; writes go through conf, loaded on the first write, because conf
// brings a JSON-schema validator that would cost every command (and the UI's first frame) ~40 ms.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StartDismissStore, TokenStore } from '@portal/core';

export const DEFAULT_API = 'http://localhost:8080';

export type HostKey = 'client' | 'project';

/** What is kept for one API origin. */
export interface HostEntry {
  token?: string;
  client?: string;
  project?: string;
  /** The "Get started" paths put away here (core's startDismissKey: one per user and account). */
  hidden?: string[];
}

/** The sign-in of one API origin. */
export interface Host {
  origin: string;
  tokens: TokenStore;
  get(key: HostKey): string | undefined;
  set(key: HostKey, value: string | undefined): void;
  /** Which "Get started" paths were put away (the terminal UI hides them; `portal login` prints no next step). */
  startDismissals: StartDismissStore;
}

export interface Store {
  /** The default API base (set at sign-in with --api or PORTAL_API). */
  get(key: 'api'): string | undefined;
  set(key: 'api', value: string | undefined): void;
  /** The sign-in kept for the origin of this API base. */
  host(base: string): Host;
  /** Every origin with something kept, in the order they were first used. */
  hosts(): Array<[string, HostEntry]>;
  /** Forgets everything kept for one origin. */
  forget(base: string): void;
  /** Resolves once every change has reached the file. */
  flush(): Promise<void>;
  /** The config file, for messages and tests. */
  path: string;
}

export interface Saved {
  api?: string;
  hosts?: Record<string, HostEntry>;
}

/** The file's shape before credentials were kept per origin: one token, account and project for the stored API. */
type Legacy = Saved & { token?: string; client?: string; project?: string };

/** The origin an API base's credentials are kept under (scheme, host and port; no path). */
export function originOf(base: string): string {
  try {
    return new URL(base).origin;
  } catch {
    return base.replace(/\/+$/, '');
  }
}

/**
 * Reads the file's contents in today's shape. A file from before per-origin credentials holds one token: it was
 * stored for the API base stored beside it (or the default one), so it moves under that origin and nowhere else.
 * Returns whether anything moved, so the file is rewritten once.
 */
export function migrate(raw: Legacy): { saved: Saved; moved: boolean } {
  const { token, client, project, ...rest } = raw;
  const saved: Saved = { ...rest, hosts: { ...(rest.hosts ?? {}) } };
  if (token === undefined && client === undefined && project === undefined) return { saved, moved: false };
  const origin = originOf(raw.api ?? DEFAULT_API);
  const entry: HostEntry = { ...saved.hosts![origin] };
  if (token !== undefined && entry.token === undefined) entry.token = token;
  if (client !== undefined && entry.client === undefined) entry.client = client;
  if (project !== undefined && entry.project === undefined) entry.project = project;
  saved.hosts![origin] = entry;
  return { saved, moved: true };
}

/** The file folder conf uses for projectName 'portal' with no suffix (XDG_CONFIG_HOME/portal on Linux). */
export async function configDir(env: Record<string, string | undefined> = process.env): Promise<string> {
  if (env.PORTAL_CONFIG_DIR) return env.PORTAL_CONFIG_DIR;
  // Loaded here rather than at start-up: `portal --version` and `--help` never open the store (a module's own build,
  // whose commands all do, loads it with the program: see build.mjs).
  const { default: envPaths } = await import(/* eager in module builds */ 'env-paths');
  return envPaths('portal', { suffix: '' }).config;
}

/** A store over saved contents; `persist` writes the whole of one top-level key (or removes it). */
function storeOver(saved: Saved, persist: (key: string, value: unknown) => void, flush: () => Promise<void>, path: string): Store {
  const hosts = (saved.hosts ??= {});
  const writeHosts = () => persist('hosts', Object.keys(hosts).length ? hosts : undefined);
  const setEntry = (origin: string, key: HostKey | 'token', value: string | undefined) => {
    const entry = (hosts[origin] ??= {});
    if (value === undefined) delete entry[key];
    else entry[key] = value;
    if (Object.keys(entry).length === 0) delete hosts[origin];
    writeHosts();
  };
  return {
    get: () => saved.api,
    set: (_key, value) => {
      if (value === undefined) delete saved.api;
      else saved.api = value;
      persist('api', value);
    },
    host(base) {
      const origin = originOf(base);
      return {
        origin,
        tokens: {
          get: () => hosts[origin]?.token ?? null,
          set: (t) => setEntry(origin, 'token', t),
          clear: () => setEntry(origin, 'token', undefined),
        },
        get: (key) => hosts[origin]?.[key],
        set: (key, value) => setEntry(origin, key, value),
        startDismissals: {
          get: (key) => !!hosts[origin]?.hidden?.includes(key),
          set(key, dismissed) {
            const kept = (hosts[origin]?.hidden ?? []).filter((k) => k !== key);
            const hidden = dismissed ? [...kept, key] : kept;
            const entry = (hosts[origin] ??= {});
            if (hidden.length) entry.hidden = hidden;
            else delete entry.hidden;
            if (Object.keys(entry).length === 0) delete hosts[origin];
            writeHosts();
          },
        },
      };
    },
    hosts: () => Object.entries(hosts),
    forget(base) {
      delete hosts[originOf(base)];
      writeHosts();
    },
    flush,
    path,
  };
}

export async function openStore(env: Record<string, string | undefined> = process.env): Promise<Store> {
  const cwd = await configDir(env);
  const path = join(cwd, 'config.json');
  let raw: Legacy = {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed && typeof parsed === 'object') raw = parsed;
  } catch {}
  const { saved, moved } = migrate(raw);
  type ConfT = { set(k: string, v: unknown): void; delete(k: string): void };
  let conf: Promise<ConfT> | null = null;
  let pending: Promise<void> = Promise.resolve();
  const persist = (key: string, value: unknown) => {
    // A copy: the write happens later, and the saved object keeps changing meanwhile.
    const copy = value === undefined ? undefined : JSON.parse(JSON.stringify(value));
    conf ??= import('conf').then(
      ({ default: Conf }) => new Conf<Saved>({ projectName: 'portal', projectSuffix: '', configFileMode: 0o600, cwd }) as unknown as ConfT,
    );
    pending = pending.then(async () => {
      const c = await conf!;
      if (copy === undefined) c.delete(key);
      else c.set(key, copy);
    });
  };
  const store = storeOver(saved, persist, () => pending, path);
  if (moved) {
    // The old single token now lives under its origin: the file is rewritten once, in the new shape.
    persist('hosts', saved.hosts);
    for (const key of ['token', 'client', 'project']) persist(key, undefined);
  }
  return store;
}

/** A store held in memory (command and screen tests); takes today's shape or the old single-token one. */
export function memoryStore(initial: Legacy = {}): Store & { saved: Saved } {
  const { saved } = migrate(JSON.parse(JSON.stringify(initial)) as Legacy);
  return Object.assign(
    storeOver(
      saved,
      () => {},
      async () => {},
      '(memory)',
    ),
    { saved },
  );
}
