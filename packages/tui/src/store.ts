// Where `portal` keeps the sign-in token, the API base and the default account and project: conf's JSON file in
// the user's config folder, mode 0600. Reads go straight to the file; writes go through conf, loaded on the first
// write, because conf brings a JSON-schema validator that would cost every command (and the UI's first frame) ~40 ms.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenStore } from '@portal/core';

export type StoreKey = 'api' | 'client' | 'project';

export interface Store {
  /** The stored sign-in token (PORTAL_TOKEN, when set, overrides it: see Session.tokens). */
  tokens: TokenStore;
  get(key: StoreKey): string | undefined;
  set(key: StoreKey, value: string | undefined): void;
  /** Resolves once every change has reached the file. */
  flush(): Promise<void>;
  /** The config file, for messages and tests. */
  path: string;
}

type Saved = Partial<Record<StoreKey | 'token', string>>;

/** The folder conf uses for projectName 'portal' with no suffix (XDG_CONFIG_HOME/portal on Linux). */
export async function configDir(env: Record<string, string | undefined> = process.env): Promise<string> {
  if (env.PORTAL_CONFIG_DIR) return env.PORTAL_CONFIG_DIR;
  // Loaded here rather than at start-up: `portal --version` and `--help` never open the store.
  const { default: envPaths } = await import('env-paths');
  return envPaths('portal', { suffix: '' }).config;
}

export async function openStore(env: Record<string, string | undefined> = process.env): Promise<Store> {
  const cwd = await configDir(env);
  const path = join(cwd, 'config.json');
  let saved: Saved = {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed && typeof parsed === 'object') saved = parsed;
  } catch {}
  type ConfT = { set(k: string, v: string): void; delete(k: string): void };
  let conf: Promise<ConfT> | null = null;
  let pending: Promise<void> = Promise.resolve();
  const write = (key: keyof Saved, value: string | undefined) => {
    if (value === undefined) delete saved[key];
    else saved[key] = value;
    conf ??= import('conf').then(
      ({ default: Conf }) => new Conf<Saved>({ projectName: 'portal', projectSuffix: '', configFileMode: 0o600, cwd }) as unknown as ConfT,
    );
    pending = pending.then(async () => {
      const c = await conf!;
      if (value === undefined) c.delete(key);
      else c.set(key, value);
    });
  };
  return {
    tokens: {
      get: () => saved.token ?? null,
      set: (t) => write('token', t),
      clear: () => write('token', undefined),
    },
    get: (key) => saved[key],
    set: (key, value) => write(key, value),
    flush: () => pending,
    path,
  };
}

/** A store held in memory: command tests, and the screens' tests. */
export function memoryStore(initial: Saved = {}): Store & { saved: Saved } {
  const saved: Saved = { ...initial };
  return {
    saved,
    tokens: {
      get: () => saved.token ?? null,
      set: (t) => void (saved.token = t),
      clear: () => void delete saved.token,
    },
    get: (key) => saved[key],
    set: (key, value) => void (value === undefined ? delete saved[key] : (saved[key] = value)),
    flush: async () => {},
    path: '(memory)',
  };
}
