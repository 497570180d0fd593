// Where `portal` keeps the sign-in token, the API base and the default account and project: conf, mode 0600.
import type { TokenStore } from '@portal/core';

export type StoreKey = 'api' | 'client' | 'project';

export interface Store {
  /** The stored sign-in token (PORTAL_TOKEN, when set, overrides it: see Session.tokens). */
  tokens: TokenStore;
  get(key: StoreKey): string | undefined;
  set(key: StoreKey, value: string | undefined): void;
  /** The config file, for messages and tests. */
  path: string;
}

type Saved = Partial<Record<StoreKey | 'token', string>>;

/** Opens the store in the user's config folder (XDG_CONFIG_HOME/portal/config.json on Linux). */
export async function openStore(env: Record<string, string | undefined> = process.env): Promise<Store> {
  // Loaded on demand: conf pulls in a JSON-schema validator that `portal --version` does not need.
  const { default: Conf } = await import('conf');
  const conf = new Conf<Saved>({
    projectName: 'portal',
    projectSuffix: '',
    configFileMode: 0o600,
    ...(env.PORTAL_CONFIG_DIR ? { cwd: env.PORTAL_CONFIG_DIR } : {}),
  });
  const saved: TokenStore = {
    get: () => conf.get('token') ?? null,
    set: (t) => conf.set('token', t),
    clear: () => conf.delete('token'),
  };
  return {
    tokens: saved,
    get: (key) => conf.get(key),
    set: (key, value) => (value === undefined ? conf.delete(key) : conf.set(key, value)),
    path: conf.path,
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
    path: '(memory)',
  };
}
