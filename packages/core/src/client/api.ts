// The API client: one typed method per call of SPEC section 7, with the token rules of section 6.
import { resolveUrl } from './url';
import { ofetch, type FetchResponse } from 'ofetch';
import type { z } from 'zod/mini';
import { en } from 'zod/locales';
import type { CallBody, CallName, CallQuery, CallResponse, CallSource } from '../contract/calls';
import type { CALLS } from '../contract/table';
import type { CallDef } from '../contract/calls/common';
import { ERROR_CODES } from '../contract/constants';
import { ErrorBody } from '../contract/errorBody';
import { CALL_NAMES } from '../contract/reference';
import { MESSAGES } from '../messages';
import { ApiError } from './errors';
import { memoryTokenStore, systemClock, tokenStatus, type Clock, type TokenStore } from './token';
import {
  DEFAULT_TIMEOUT_MS,
  RETRY_DELAYS_MS,
  deadline,
  isRetryableStatus,
  retryAfterMs,
  sleepMs,
  timeoutText,
  unreachableText,
} from './network';

type Def<N extends CallName> = (typeof CALLS)[N];

/** What each method takes: the query for GET calls, the body otherwise; login takes the credentials. */
export type CallArgs<N extends CallName> = N extends 'login'
  ? { email: string; password: string }
  : N extends 'resetFinish'
    ? CallBody<N> & { token: string }
    : Def<N> extends { query: z.ZodMiniType }
      ? CallQuery<N>
      : Def<N> extends { body: z.ZodMiniType }
        ? CallBody<N>
        : void;

export type ApiMethods = { [N in CallName]: (args: CallArgs<N>, opts?: CallOptions) => Promise<CallResponse<N>> };

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** The API base, e.g. http://localhost:8080 (empty for the same origin in a browser). */
  baseUrl: string;
  tokens: TokenStore;
  /**
   * Where the client finds each call's method, path and schemas: core's whole route table (`callTable`), or
   * `loadCall` from `@portal/core/contract/load`, which builds a group's schemas on its first call (the CLI).
   */
  calls: CallSource;
  clock?: Clock;
  /** Called when a protected call finds no token or an expired one, after the token is removed. */
  onAuthFailure?: (message: typeof MESSAGES.tokenMissing | typeof MESSAGES.tokenExpired) => void;
  /** A fetch implementation (tests); defaults to the global one. */
  fetch?: typeof fetch;
  /**
   * The fetch and Headers the route table's calls use, when not the global ones (Node programs pass
   * `plainHttp` from `@portal/core/node`: node:http instead of Node's undici-backed fetch).
   */
  http?: { fetch: typeof fetch; Headers: typeof Headers };
  /**
   * How long a call may wait for its whole answer before it fails saying it timed out (default 30 s; 0 for no limit).
   * Calls that are safe to repeat (GET) are tried up to 3 times when the server cannot be reached or answers 502, 503
   * or 504, waiting 0.3 s then 0.9 s; a timed-out call is not repeated (the limit is the caller's bound on waiting).
   */
  timeoutMs?: number;
}

export interface PutOptions {
  signal?: AbortSignal;
  contentType?: string;
  /** Byte length, required by Node when the body is a stream. */
  size?: number;
}

function basicAuth(email: string, password: string): string {
  const raw = `${email}:${password}`;
  const bytes = new TextEncoder().encode(raw);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return `Basic ${typeof btoa === 'function' ? btoa(bin) : Buffer.from(raw).toString('base64')}`;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly tokens: TokenStore;
  private readonly clock: Clock;
  private readonly onAuthFailure?: ApiClientOptions['onAuthFailure'];
  private readonly fetchImpl?: typeof fetch;
  readonly timeoutMs: number;
  /** ofetch bound to the injected fetch (ofetch reads its fetch when an instance is made, not per request). */
  private readonly http: typeof ofetch;
  private memoryRefreshMs: number | null = null;
  private refreshing: Promise<void> | null = null;
  /** The entries of the calls made so far: found once per client, and read for a failure's text. */
  private readonly defs = new Map<CallName, CallDef>();
  /** One typed method per call of the route table, e.g. `api.calls.bucketList({ client })`. */
  readonly calls: ApiMethods;

  constructor(private readonly options: ApiClientOptions) {
    const opts = options;
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.tokens = opts.tokens;
    this.clock = opts.clock ?? systemClock;
    this.onAuthFailure = opts.onAuthFailure;
    this.fetchImpl = opts.fetch;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.http = opts.http
      ? ofetch.create({}, { fetch: opts.http.fetch, Headers: opts.http.Headers })
      : opts.fetch
        ? ofetch.create({}, { fetch: opts.fetch })
        : ofetch;
    const calls: Partial<Record<CallName, unknown>> = {};
    for (const name of CALL_NAMES) {
      calls[name] = (args: unknown, o?: CallOptions) => this.call(name, args as never, o);
    }
    this.calls = calls as ApiMethods;
  }

  /** Resolves a URL the server returned (absolute, or a path on the API host). */
  resolve(url: string): string {
    return resolveUrl(this.baseUrl, url);
  }

  private authFailure(
    code: 'token_missing' | 'token_expired',
    name: CallName | undefined,
    status = 401,
    serverMessage: string | null = null,
  ): ApiError {
    const message = code === 'token_missing' ? MESSAGES.tokenMissing : MESSAGES.tokenExpired;
    if (code === 'token_expired') this.tokens.clear();
    this.onAuthFailure?.(message);
    return new ApiError(status, code, serverMessage, message, name);
  }

  /**
   * Signs out: ends the session on the server, so the token is worthless wherever a copy of it lives, then forgets
   * it here. The token is forgotten even when the server cannot be reached; `ended` says whether the session is
   * known to be over (ended now, already ended, or expired), and `error` what went wrong when it is not.
   */
  async logout(): Promise<{ ended: boolean; error?: ApiError }> {
    const token = this.tokens.get();
    // Forgotten first: the door leaves at once and nothing sent meanwhile carries the token.
    this.tokens.clear();
    if (!token || tokenStatus(token, this.clock.now(), null) === 'expired') return { ended: true };
    // A client of its own for the one call: no refresh, and no "Token expired" notice when the session had ended already.
    const once = new ApiClient({ ...this.options, tokens: memoryTokenStore(token), onAuthFailure: undefined });
    try {
      await once.call('logout', undefined as never);
      return { ended: true };
    } catch (e) {
      const error =
        e instanceof ApiError ? e : new ApiError(0, 'network', (e as Error)?.message ?? null, MESSAGES.serverUnreachable, 'logout');
      return { ended: error.status === 401, error };
    }
  }

  /** When the token was last refreshed: the store's record when it keeps one (it outlives the page), else this client's. */
  private get lastRefreshMs(): number | null {
    return this.tokens.refreshedAt ? this.tokens.refreshedAt() : this.memoryRefreshMs;
  }
  private set lastRefreshMs(ms: number) {
    this.memoryRefreshMs = ms;
    this.tokens.setRefreshedAt?.(ms);
  }

  /** Applies the refresh rule before a protected call: under 30 minutes left, at most once per 60 s. */
  private async beforeProtected(name: CallName | undefined): Promise<string> {
    // A refresh already in flight: wait for it and send the token it brings.
    if (this.refreshing && name !== 'refresh') await this.refreshing;
    const token = this.tokens.get();
    const now = this.clock.now();
    const status = tokenStatus(token, now, this.lastRefreshMs);
    if (status === 'missing') throw this.authFailure('token_missing', name);
    if (status === 'expired') throw this.authFailure('token_expired', name);
    if (status === 'refresh' && name !== 'refresh' && name !== 'logout') {
      this.lastRefreshMs = now;
      this.refreshing ??= this.call('refresh', undefined as never)
        .then(
          () => undefined,
          () => undefined,
        )
        .finally(() => (this.refreshing = null));
      await this.refreshing;
    }
    return this.tokens.get() ?? token!;
  }

  /** What a failed call shows: SPEC's text for the call; `said` is the server's own words, `serverMessage` as the client words it. */
  private display(name: CallName | undefined, status: number, serverMessage: string | null, said: string | null = serverMessage): string {
    if (!name) return serverMessage ?? MESSAGES.unexpected;
    // The call's entry is known by the time anything fails: call() finds it before sending.
    const failure = this.defs.get(name)?.failure;
    // No answer, or a server failing, is not a refusal of the credentials: say what happened instead.
    const noVerdict = (status === 0 || status >= 500) && !!serverMessage;
    if (name === 'login') return (status === 429 || noVerdict) && serverMessage ? serverMessage : MESSAGES.invalidCredentials;
    // SPEC: the server's message if present, else 'Sign up failed. Please try again.' (a bare 500 says nothing).
    if (name === 'signup') return status === 0 ? MESSAGES.unexpected : (said ?? MESSAGES.signupFailed);
    if ((name === 'resetStart' || name === 'resetFinish') && (status === 400 || status === 429 || noVerdict) && serverMessage)
      return serverMessage;
    if (failure) return failure;
    return serverMessage ?? MESSAGES.unexpected;
  }

  /** Makes one call of the route table. */
  async call<N extends CallName>(name: N, args: CallArgs<N>, opts: CallOptions = {}): Promise<CallResponse<N>> {
    const def = this.defs.get(name) ?? (await this.options.calls(name));
    this.defs.set(name, def);
    const headers: Record<string, string> = { accept: 'application/json' };
    let query: Record<string, unknown> | undefined;
    let body: unknown;
    if (def.auth === 'basic') {
      const { email, password } = args as { email: string; password: string };
      headers.authorization = basicAuth(email, password);
    } else if (def.auth === 'reset') {
      const { token, ...rest } = args as { token: string };
      headers.authorization = `Bearer ${token}`;
      body = rest;
    } else if (def.auth === 'bearer') {
      headers.authorization = `Bearer ${await this.beforeProtected(name)}`;
    }
    if (def.method === 'GET') query = (args ?? undefined) as Record<string, unknown> | undefined;
    else if (def.auth !== 'reset' && def.auth !== 'basic') body = args ?? undefined;
    if (body !== undefined) headers['content-type'] = 'application/json';

    const res = await this.send(name, def.method, this.resolve(def.path), headers, query, body, opts.signal);
    const data = res._data as Record<string, unknown> | undefined;
    // SPEC section 6: a token in any response replaces the stored one.
    if (data && typeof data === 'object' && !Array.isArray(data) && typeof data.token === 'string' && name !== 'resetFinish') {
      this.tokens.set(data.token);
    }

    if (res.status < 200 || res.status >= 300) {
      const parsed = ErrorBody.safeParse(data);
      const code = parsed.success ? parsed.data.error.code : `http_${res.status}`;
      const said = parsed.success ? parsed.data.error.message : null;
      const serverMessage = res.status >= 500 ? MESSAGES.serverError(res.status, said) : said;
      if (res.status === 401 && def.auth === 'bearer' && code !== ERROR_CODES.inviteInvalid) {
        throw this.authFailure(code === 'token_missing' ? 'token_missing' : 'token_expired', name, 401, serverMessage);
      }
      throw new ApiError(
        res.status,
        code,
        serverMessage,
        this.display(name, res.status, serverMessage, said),
        name,
        retryAfterMs(res.headers),
      );
    }

    const out = def.response.safeParse(data);
    if (!out.success) {
      // zod/mini carries no messages of its own: the reason is read again with zod's English ones.
      const why = def.response.safeParse(data, { error: en().localeError }).error?.issues[0];
      throw new ApiError(
        res.status,
        'bad_response',
        `Unexpected response at ${why?.path.join('.') || 'body'}: ${why?.message}`,
        this.display(name, res.status, null),
        name,
      );
    }
    return out.data as CallResponse<N>;
  }

  /**
   * An authenticated call outside the route table (`portal api`): the same token rules, time limit and retries. Resolves
   * to whatever the server answered, any status; rejects only when no answer came, or for the sign-in failures.
   */
  async request(
    method: string,
    path: string,
    opts: { query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; statusText: string; headers: Array<[string, string]>; data: unknown }> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${await this.beforeProtected(undefined)}`,
      ...opts.headers,
    };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    // Only a path on this API: the token never goes to a URL given here.
    const res = await this.send(
      undefined,
      method.toUpperCase(),
      `${this.baseUrl}/${path.replace(/^\/+/, '')}`,
      headers,
      opts.query,
      opts.body,
      opts.signal,
    );
    const data = res._data as Record<string, unknown> | undefined;
    if (data && typeof data === 'object' && !Array.isArray(data) && typeof data.token === 'string') this.tokens.set(data.token);
    if (res.status === 401) {
      const parsed = ErrorBody.safeParse(data);
      const code = parsed.success ? parsed.data.error.code : 'token_expired';
      throw this.authFailure(
        code === 'token_missing' ? 'token_missing' : 'token_expired',
        undefined,
        401,
        parsed.success ? parsed.data.error.message : null,
      );
    }
    return { status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], data: data ?? null };
  }

  /**
   * Sends one call within the time limit, trying an idempotent one again after a failed connection or a 502/503/504.
   * Resolves to the last answer; rejects with an ApiError saying what happened when none came.
   */
  private async send(
    name: CallName | undefined,
    method: string,
    url: string,
    headers: Record<string, string>,
    query: Record<string, unknown> | undefined,
    body: unknown,
    outer?: AbortSignal,
  ): Promise<FetchResponse<unknown>> {
    const idempotent = method === 'GET';
    for (let attempt = 0; ; attempt++) {
      const again = idempotent && attempt < RETRY_DELAYS_MS.length;
      const limit = deadline(this.timeoutMs, outer);
      let res: FetchResponse<unknown>;
      try {
        res = await this.http.raw(url, {
          method,
          headers,
          query,
          // Sent as JSON text: ofetch would otherwise test the object against FormData, whose global getter makes
          // Node load undici for a call that goes over node:http.
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: limit.signal,
          retry: 0,
          ignoreResponseError: true,
          responseType: 'json',
        } as Parameters<typeof ofetch.raw>[1]);
      } catch (e) {
        // A cancelled call rejects with the abort itself (ofetch wraps it in a FetchError), so isAbortError knows it.
        if (outer?.aborted) throw outer.reason ?? e;
        if (limit.timedOut) {
          const text = timeoutText(url, this.timeoutMs);
          throw new ApiError(0, 'timeout', text, name === 'signup' ? MESSAGES.unexpected : this.display(name, 0, text), name);
        }
        if ((e as Error)?.name === 'AbortError') throw e;
        if (again) {
          await sleepMs(RETRY_DELAYS_MS[attempt], outer);
          continue;
        }
        const text = unreachableText(url, e);
        throw new ApiError(0, 'network', text, name === 'signup' ? MESSAGES.unexpected : this.display(name, 0, text), name);
      } finally {
        limit.done();
      }
      if (again && isRetryableStatus(res.status)) {
        await sleepMs(RETRY_DELAYS_MS[attempt], outer);
        continue;
      }
      return res;
    }
  }

  /** The direct PUT of file bytes to a pre-signed URL (SPEC section 4, step 3). */
  async putBytes(url: string, body: BodyInit, opts: PutOptions = {}): Promise<void> {
    const f = this.fetchImpl ?? fetch;
    const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/octet-stream' };
    if (opts.size !== undefined) headers['content-length'] = String(opts.size);
    let res: Response;
    try {
      res = await f(this.resolve(url), {
        method: 'PUT',
        headers,
        body,
        signal: opts.signal,
        // Node's fetch needs this to send a stream body.
        ...(typeof body === 'object' && body !== null && 'getReader' in (body as object) ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (e) {
      // A cancelled call rejects with the abort itself (ofetch wraps it in a FetchError), so isAbortError knows it.
      if (opts.signal?.aborted) throw opts.signal.reason ?? e;
      if ((e as Error)?.name === 'AbortError') throw e;
      throw new ApiError(0, 'network', (e as Error)?.message ?? null, MESSAGES.uploadFiles);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let serverMessage: string | null = text.slice(0, 500) || null;
      try {
        const parsed = ErrorBody.safeParse(JSON.parse(text));
        if (parsed.success) serverMessage = parsed.data.error.message;
      } catch {}
      throw new ApiError(res.status, `http_${res.status}`, serverMessage, MESSAGES.uploadFiles);
    }
  }

  /** Fetches a result download (run.url) and returns its text. */
  async downloadText(url: string, signal?: AbortSignal): Promise<string> {
    const f = this.fetchImpl ?? fetch;
    const target = this.resolve(url);
    const limit = deadline(this.timeoutMs, signal);
    try {
      const res = await f(target, { signal: limit.signal });
      if (!res.ok) throw new ApiError(res.status, `http_${res.status}`, await res.text().catch(() => null), MESSAGES.loadRun);
      return await res.text();
    } catch (e) {
      if (e instanceof ApiError || signal?.aborted) throw e;
      const text = limit.timedOut ? timeoutText(target, this.timeoutMs) : unreachableText(target, e);
      throw new ApiError(0, limit.timedOut ? 'timeout' : 'network', text, MESSAGES.loadRun);
    } finally {
      limit.done();
    }
  }
}
