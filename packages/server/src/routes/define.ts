// Declares one call of core's route table: method and path from CALLS, auth by the call's kind, zod validation of query and body.
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import type { z } from 'zod/mini';
import { CALLS, MESSAGES, type CallName, type CallResponse } from '@portal/core';
import { badRequest, tokenExpired, tokenMissing, unauthorized } from '../errors';
import { sha256Hex } from '../auth/secrets';
import type { Caller, Services } from '../services';

type Def<N extends CallName> = (typeof CALLS)[N];
type Parsed<D, K extends 'query' | 'body'> = D extends { [P in K]: infer S extends z.ZodMiniType } ? z.output<S> : undefined;

export interface CallContext<N extends CallName> {
  s: Services;
  req: FastifyRequest;
  reply: FastifyReply;
  /** The signed-in user or API key; set for bearer calls. */
  caller: Caller;
  /** For reset calls: the user and the reset token's id. */
  reset?: { user: string; jti: string };
  query: Parsed<Def<N>, 'query'>;
  body: Parsed<Def<N>, 'body'>;
  /** The API's public base URL, for links the client follows (upload, download, payment). */
  base: string;
}

export interface CallOptions {
  /** Client API keys may make this call for their own client (the Python client's calls). */
  keys?: boolean;
  /** Limit attempts per address (login, sign-up, password reset; invitations, which send mail and spend links). */
  rateLimit?: boolean;
  /**
   * The handler's statement reads the session row itself (`sessionToCheck`, `sessionRead` in access.ts), so the call
   * is one trip to the database; an answer whose handler did not read it is never sent.
   */
  sessionInQuery?: boolean;
}

const SPEC_TEXTS: ReadonlySet<string> = new Set<string>(Object.values(MESSAGES).filter((m) => typeof m === 'string') as string[]);

/** The first issue as a sentence that names the field; SPEC's own messages pass through as they are. */
export function issueMessage(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  if (SPEC_TEXTS.has(issue.message) || issue.code === 'custom') return issue.message;
  const field = issue.path.map(String).join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** The path of the first string holding a NUL character: PostgreSQL text cannot store one, so it is bad input. */
export function nulField(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path.join('.') || 'input' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = nulField(value[i], [...path, String(i)]);
      if (hit !== null) return hit;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const hit = nulField(v, [...path, k]);
      if (hit !== null) return hit;
    }
  }
  return null;
}

export const NUL_MESSAGE = 'must not contain the NUL character';

/** A Host header's name without its port (`[::1]:8080` is `::1`), lower case. */
export function hostName(host: string): string {
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  return h.split(':').length === 2 ? h.slice(0, h.indexOf(':')) : h;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * The base of links the server hands out (upload, download, payment, password reset): PUBLIC_URL when set;
 * otherwise the request's Host only when it names localhost, HOST or one of ALLOWED_HOSTS. Any other Host
 * (`Host: evil.example`) gets `http://localhost:<port>`: a forged header never decides where links point.
 */
export function baseUrl(s: Services, req: FastifyRequest): string {
  if (s.config.publicUrl) return s.config.publicUrl;
  const name = hostName(req.host ?? '');
  const { host, allowedHosts } = s.config;
  if (name && (LOOPBACK.has(name) || name === host.toLowerCase() || allowedHosts.includes(name))) return `${req.protocol}://${req.host}`;
  const address = req.server.server.address();
  const port = address && typeof address === 'object' ? address.port : s.config.port;
  return `http://localhost:${port}`;
}

export function bearerOf(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}

export const KEY_TOKEN_PREFIX = 'pk_';

export async function authenticate(s: Services, req: FastifyRequest, allowKeys: boolean, sessionInQuery = false): Promise<Caller> {
  const token = bearerOf(req);
  if (!token) throw tokenMissing();
  if (token.startsWith(KEY_TOKEN_PREFIX)) {
    if (!allowKeys) throw unauthorized('API keys cannot make this call; sign in instead.');
    const key = await s.db
      .selectFrom('apikeys')
      .select(['clue', 'client'])
      .where('token_hash', '=', sha256Hex(token))
      .where('active', '=', 1)
      .executeTakeFirst();
    if (!key) throw unauthorized('Invalid API key');
    return { kind: 'key', clue: key.clue, client: key.client };
  }
  const v = await s.tokens.verify(token, 'session');
  if (!v.ok || !v.claims.sid) throw !v.ok && v.reason === 'expired' ? tokenExpired() : unauthorized('Invalid token');
  const user = { kind: 'user' as const, stamp: v.claims.sub, email: v.claims.email, username: v.claims.username, session: v.claims.sid };
  if (sessionInQuery) return { ...user, sessionPending: true };
  // A good signature is not enough: the session must still be current (not logged out, not ended by a password
  // reset), read from the database on every call so every API process agrees at once.
  if (!(await s.sessions.current(v.claims.sid, v.claims.sub))) throw tokenExpired();
  await s.sessions.touch(v.claims.sid);
  return user;
}

/** What the request's preValidation hook found: the caller (bearer calls) or the reset token (reset calls). */
const signedIn = new WeakMap<FastifyRequest, { caller: Caller; reset?: { user: string; jti: string } }>();
const NOBODY: Caller = { kind: 'user', stamp: '', email: '', username: '' };

/**
 * The contract's zod schemas as Fastify's validators: a query or body is parsed (coerced, trimmed, defaulted) before
 * the handler runs, and a refusal is the 400 with the sentence the server always answered (issueMessage).
 */
export const contractValidator: FastifySchemaCompiler<z.ZodMiniType> =
  ({ schema }) =>
  (data) => {
    const r = schema.safeParse(data ?? {});
    return r.success ? { value: r.data } : { error: badRequest(issueMessage(r.error)) };
  };

/**
 * Answers are written with JSON.stringify, as before. With `check` (the tests: PORTAL_CHECK_ANSWERS), each answer
 * is first read back through its call's response schema, as a client reads it: one that does not match is a 500.
 */
export function contractSerializer(check: boolean): FastifySerializerCompiler<z.ZodMiniType> {
  return ({ schema, url, method }) => {
    if (!check) return (data) => JSON.stringify(data);
    return (data) => {
      const text = JSON.stringify(data);
      const r = schema.safeParse(JSON.parse(text));
      if (!r.success) throw new Error(`The answer of ${method} ${url} does not match the contract: ${issueMessage(r.error)}`);
      return text;
    };
  };
}

export function defineCall<N extends CallName>(
  app: FastifyInstance,
  s: Services,
  name: N,
  opts: CallOptions,
  handler: (ctx: CallContext<N>) => Promise<CallResponse<N>>,
): void {
  const def = CALLS[name] as Def<N> & { query?: z.ZodMiniType; body?: z.ZodMiniType; response: z.ZodMiniType };
  app.route({
    method: def.method,
    url: def.path,
    // `call` and `keys` name the call for the API reference (routes/reference.ts).
    config: {
      call: name,
      keys: !!opts.keys,
      ...(opts.rateLimit ? { rateLimit: { max: s.config.authRateLimit, timeWindow: '1 minute' } } : {}),
    },
    // The contract's schemas, checked by Fastify before the handler (contractValidator) and used to write the answer.
    schema: {
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: { 200: def.response },
    },
    // Who calls comes first: a request without a good token is a 401 whatever its query or body.
    preValidation: async (req) => {
      let caller = NOBODY;
      let reset: CallContext<N>['reset'];
      if (def.auth === 'bearer') caller = await authenticate(s, req, !!opts.keys, opts.sessionInQuery);
      if (def.auth === 'reset') {
        const token = bearerOf(req);
        if (!token) throw tokenMissing();
        const v = await s.tokens.verify(token, 'reset');
        if (!v.ok || !v.claims.jti) throw v.ok ? unauthorized() : v.reason === 'expired' ? tokenExpired() : unauthorized();
        reset = { user: v.claims.sub, jti: v.claims.jti };
      }
      const nul = nulField(req.query) ?? nulField(req.body);
      if (nul !== null) throw badRequest(`${nul}: ${NUL_MESSAGE}`);
      if (caller !== NOBODY || reset) signedIn.set(req, { caller, reset });
    },
    handler: async (req, reply) => {
      const found = signedIn.get(req);
      const caller = found?.caller ?? { ...NOBODY };
      const result = await handler({
        s,
        req,
        reply,
        caller,
        reset: found?.reset,
        base: baseUrl(s, req),
        query: (def.query ? req.query : undefined) as CallContext<N>['query'],
        body: (def.body ? req.body : undefined) as CallContext<N>['body'],
      });
      if (caller.kind === 'user' && caller.sessionPending) throw new Error(`${name} answered without reading the session row`);
      // A handler that wrote a prepared JSON text itself has already answered; one that answers with a stream returns
      // the reply (still being written).
      if (reply.sent || (result as unknown) === reply) return reply;
      return reply.send(result);
    },
  });
}
