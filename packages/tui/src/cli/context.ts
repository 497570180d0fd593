// What every command gets: injected IO, store and API factory (so tests run commands with fake IO), and the
// resolution of the global flags (--api, --json, --client, --project) into an API client, account and project.
import type { Command } from 'commander';
import { isWellFormedToken, memoryTokenStore, type ApiClient, type Project, type Client, type TokenStore } from '@portal/core';
import type { NodeApiOptions } from './client';
import { DEFAULT_API, originOf, type Host, type Store } from '../store';
import { CliError, EXIT, usageError } from './errors';
import { Output, type OutStream } from './output';
import { readAll, type Prompter } from './prompt';

export { DEFAULT_API };

export interface Deps {
  stdin: AsyncIterable<Buffer | string> & { isTTY?: boolean };
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
  /** Opens the token and settings store (lazily: most of `--help` and `--version` never need it). */
  openStore(): Promise<Store>;
  makeApi(opts: NodeApiOptions): ApiClient | Promise<ApiClient>;
  now(): number;
  sleep(ms: number): Promise<void>;
  cwd: string;
  /** Asks on the terminal; only used when stdin is a TTY. */
  prompter?: Prompter;
  /** Starts the interactive UI (loaded on demand); resolves to the exit code. */
  startUi?(session: Session, initial?: string): Promise<number>;
  version: string;
  /** How often --wait polls. */
  pollMs: number;
  /** Runs `portal` again with other arguments and IO, in this process (shell completion lists through it). */
  rerun?(argv: string[], deps: Deps): Promise<number>;
  /** Calls fn on Ctrl+C (SIGINT) until the returned function is called. */
  onInterrupt?(fn: () => void): () => void;
}

export interface GlobalOptions {
  api?: string;
  json?: boolean;
  client?: string;
  project?: string;
  timeout?: string;
  jq?: string;
  /** `--json a,b,c`: the fields to print (taken out of the arguments before commander reads them). */
  jsonFields?: string[];
  /** `--limit N` of a list command. */
  limit?: string;
}

/** `--limit N`: a whole number of at least 1. */
function listLimit(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\s*\d+\s*$/.test(raw) || Number(raw) < 1) throw usageError(`--limit must be a whole number of at least 1, got "${raw}"`);
  return Number(raw);
}

export class Session {
  readonly out: Output;
  private storePromise: Promise<Store> | null = null;
  private apiClient: ApiClient | null = null;
  private resolvedBase: string | null = null;
  private clientsCache: Client[] | null = null;

  constructor(
    readonly deps: Deps,
    readonly opts: GlobalOptions,
  ) {
    this.out = new Output(deps.stdout, deps.stderr, !!opts.json || opts.jq !== undefined, {
      fields: opts.jsonFields,
      limit: listLimit(opts.limit),
    });
  }

  static of(deps: Deps, cmd: Command): Session {
    return new Session(deps, cmd.optsWithGlobals() as GlobalOptions);
  }

  /** The same session with some global flags replaced. */
  with(opts: Partial<GlobalOptions>): Session {
    const next = new Session(this.deps, { ...this.opts, ...opts });
    next.storePromise = this.storePromise;
    next.tokenStore = this.tokenStore;
    return next;
  }

  get interactive(): boolean {
    return !!this.deps.stdin.isTTY && !!this.deps.prompter;
  }

  store(): Promise<Store> {
    return (this.storePromise ??= sharedStore(this.deps));
  }

  /** Writes pending changes now, so a command never reports as kept what did not reach the file. */
  async save(): Promise<void> {
    const store = await this.store();
    try {
      await store.flush();
    } catch (e) {
      throw new CliError(saveFailure(store.path, e), EXIT.failure);
    }
  }

  /** --api, else PORTAL_API, else the stored one, else http://localhost:8080. */
  async baseUrl(): Promise<string> {
    if (this.resolvedBase) return this.resolvedBase;
    const fromFlag = this.opts.api ?? this.deps.env.PORTAL_API;
    const base = fromFlag ?? (await this.store()).get('api') ?? DEFAULT_API;
    if (!/^https?:\/\/[^/]+/i.test(base)) throw usageError(`--api must be an http(s) URL, got "${base}"`);
    return (this.resolvedBase = base.replace(/\/+$/, ''));
  }

  private tokenStore: TokenStore | null = null;

  /** What is kept for the API origin this command talks to: its token and default account and project. */
  async host(): Promise<Host> {
    return (await this.store()).host(await this.baseUrl());
  }

  /**
   * The token: PORTAL_TOKEN when set (kept in memory for this process), else the one stored for this API's origin:
   * a token is never sent to another server than the one it was issued by.
   */
  async tokens(): Promise<TokenStore> {
    const fromEnv = this.envToken();
    return (this.tokenStore ??= fromEnv ? memoryTokenStore(fromEnv) : (await this.host()).tokens);
  }

  /** PORTAL_TOKEN when set; one that is not a token's shape (a truncated paste) is refused by name, before any call. */
  envToken(): string | undefined {
    const raw = this.deps.env.PORTAL_TOKEN;
    if (!raw) return undefined;
    const token = raw.trim();
    if (!isWellFormedToken(token))
      throw new CliError(
        'PORTAL_TOKEN is not a valid token (it should be what portal auth token prints): set it again, or unset it to use your stored sign-in',
        EXIT.auth,
      );
    return token;
  }

  /** --timeout, else PORTAL_TIMEOUT, in seconds (0: no limit), as milliseconds; undefined for the client's 30 s. */
  timeoutMs(): number | undefined {
    const flag = this.opts.timeout !== undefined;
    const raw = this.opts.timeout ?? this.deps.env.PORTAL_TIMEOUT;
    if (raw === undefined || raw === '') return undefined;
    const n = Number(raw);
    if (!/^\s*\d+(\.\d+)?\s*$/.test(raw) || !Number.isFinite(n))
      throw usageError(`${flag ? '--timeout' : 'PORTAL_TIMEOUT'} must be a number of seconds (0 for no limit), got "${raw}"`);
    return Math.round(n * 1000);
  }

  /** What every API client of this command is made with: the base, this origin's token, the clock, the time limit. */
  async apiOptions(): Promise<NodeApiOptions> {
    const timeoutMs = this.timeoutMs();
    return {
      baseUrl: await this.baseUrl(),
      tokens: await this.tokens(),
      clock: { now: () => this.deps.now() },
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    };
  }

  async api(): Promise<ApiClient> {
    return (this.apiClient ??= await this.deps.makeApi(await this.apiOptions()));
  }

  /** How to sign in to the server this command talks to (naming it when it is not the default one). */
  async signInHint(): Promise<string> {
    if (this.deps.env.PORTAL_TOKEN)
      return 'the token in PORTAL_TOKEN was refused: set it to a current token (portal auth token), or unset it';
    const chosen = this.opts.api ?? this.deps.env.PORTAL_API;
    if (!chosen) return 'sign in with portal login';
    const origin = originOf(await this.baseUrl().catch(() => chosen));
    const stored = (await this.store().catch(() => null))?.get('api');
    return origin === originOf(stored ?? DEFAULT_API)
      ? 'sign in with portal login'
      : `sign in to ${origin} with portal login --api ${origin}`;
  }

  /** A value from a flag, else a prompt on a TTY, else a usage error naming the flag. */
  async need(value: string | undefined, flag: string, question: string, opts: { secret?: boolean } = {}): Promise<string> {
    if (value !== undefined) return value;
    if (!this.interactive) throw usageError(`${flag} is required (no terminal to ask on)`);
    return this.deps.prompter!.ask(`${question}: `, opts);
  }

  /** A secret from stdin (--password-stdin) or a hidden prompt on a TTY. */
  async secret(fromStdin: boolean | undefined, flag: string, question: string): Promise<string> {
    if (fromStdin) return readAll(this.deps.stdin);
    if (!this.interactive) throw usageError(`${flag} is required (no terminal to ask on)`);
    return this.deps.prompter!.ask(`${question}: `, { secret: true });
  }

  async clients(): Promise<Client[]> {
    if (this.clientsCache) return this.clientsCache;
    const api = await this.api();
    const perms = await api.calls.permissions();
    return (this.clientsCache = perms.map((p) => p.client));
  }

  /** --client, else the user's only account, else the stored last one; otherwise says how to choose. */
  async client(): Promise<Client> {
    const clients = await this.clients();
    const host = await this.host();
    const wanted = this.opts.client;
    if (wanted) {
      const found = clients.find((c) => c.stamp === wanted) ?? clients.find((c) => c.name === wanted);
      if (!found) throw new CliError(`No account ${wanted} for this user (see portal accounts list)`);
      return found;
    }
    if (clients.length === 1) return clients[0];
    if (clients.length === 0) throw new CliError('This user belongs to no account.');
    const last = clients.find((c) => c.stamp === host.get('client'));
    if (last) return last;
    throw usageError(`This user has ${clients.length} accounts: choose one with --client <id> (see portal accounts list)`);
  }

  /** --project, else the project set with `portal projects open`, else the account's only project. */
  async project(client?: Client): Promise<{ client: Client; project: Project }> {
    const c = client ?? (await this.client());
    const api = await this.api();
    const { bucket: projects } = await api.calls.bucketList({ active: 1, client: c.stamp });
    const wanted = this.opts.project;
    if (wanted) {
      const found = projects.list.find((b) => b.stamp === wanted) ?? projects.list.find((b) => b.name === wanted);
      if (!found) throw new CliError(`No project ${wanted} in ${c.name} (see portal projects list)`);
      return { client: c, project: found };
    }
    const stored = (await this.host()).get('project');
    const last = projects.list.find((b) => b.stamp === stored);
    if (last) return { client: c, project: last };
    if (projects.list.length === 1) return { client: c, project: projects.list[0] };
    if (projects.list.length === 0) throw new CliError(`${c.name} has no projects yet: create one with portal projects create --name N`);
    throw usageError('Choose a project with --project <id> (see portal projects list), or set a default with portal projects open <id>');
  }

  /** Polls until done(value) is true, printing each change of state on stderr. */
  async follow<T>(load: () => Promise<T>, state: (v: T) => string, done: (v: T) => boolean, label: string): Promise<T> {
    let last = '';
    for (;;) {
      const v = await load();
      const s = state(v);
      if (s !== last) this.out.notice(`${label}: ${s}`);
      last = s;
      if (done(v)) return v;
      await this.deps.sleep(this.deps.pollMs);
    }
  }

  exit(code: number): never {
    throw new ExitSignal(code);
  }
}

/** Thrown to end a command with a given code without printing anything more. */
export class ExitSignal extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

export { EXIT };

const opened = new WeakMap<Deps, Promise<Store>>();

/** Opens the store once per run (every session of the run shares it). */
export function sharedStore(deps: Deps): Promise<Store> {
  let p = opened.get(deps);
  if (!p) opened.set(deps, (p = deps.openStore()));
  return p;
}

/** Writes the run's pending store changes; the message to show when they could not be written, else null. */
export async function flushStore(deps: Deps): Promise<string | null> {
  const p = opened.get(deps);
  if (!p) return null;
  const store = await p;
  try {
    await store.flush();
    return null;
  } catch (e) {
    return saveFailure(store.path, e);
  }
}

const saveFailure = (path: string, e: unknown) =>
  `Could not save your settings to ${path}: ${e instanceof Error ? e.message : String(e)}. Check that the folder is writable (or set PORTAL_CONFIG_DIR).`;
