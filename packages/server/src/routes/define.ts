// One call of core's route table as a Fastify route: method and path from CALLS; its query and body schemas given to
// Fastify through the zod type provider (validated before the handler, typed in it); who may call by the call's kind;
// the answer written against the call's response schema (and, in the tests, checked against it).
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { hasZodFastifySchemaValidationErrors, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod/mini';
import { MESSAGES, type CallName, type CallResponse } from '@portal/core';
import { CALLS } from '@portal/core/contract/table';
import { badRequest, tokenExpired, tokenMissing, unauthorized, type HttpError } from '../errors';
import { sha256Hex } from '../auth/secrets';
import type { Caller, Services } from '../services';

type Def<N extends CallName> = (typeof CALLS)[N];
type SchemaOf<D, K extends 'query' | 'body'> = D extends { [P in K]: infer S } ? S : undefined;
/** What the type provider makes of a call's query or body schema: the parsed value the handler gets. */
type Validated<S> = S extends undefined ? undefined : (ZodTypeProvider & { schema: S })['validator'];

/** A Fastify instance whose routes are typed by their zod schemas (every route group is a plugin of this kind). */
export type ContractApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What every call uses: who calls (the database, tokens and sessions) and where its links point (the config). */
export const CALL_SERVICES = ['config', 'db', 'tokens', 'sessions'] as const;
export type CallServices = Pick<Services, (typeof CALL_SERVICES)[number]>;

export interface CallContext<N extends CallName, S extends CallServices = CallServices> {
  /** The services of the route group that declared the call (only those it was given). */
  s: S;
  req: FastifyRequest;
  reply: FastifyReply;
  /** The signed-in user or API key; set for bearer calls. */
  caller: Caller;
  /** For reset calls: the user and the reset token's id. */
  reset?: { user: string; jti: string };
  query: Validated<SchemaOf<Def<N>, 'query'>>;
  body: Validated<SchemaOf<Def<N>, 'body'>>;
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

/** An issue as a sentence that names its field; SPEC's own messages (and the contract's custom ones) pass as they are. */
function issueSentence(issue: { code: string; message: string }, field: string): string {
  if (SPEC_TEXTS.has(issue.message) || issue.code === 'custom') return issue.message;
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** The first issue of a zod error as the sentence the server answers (the API reference's examples use it too). */
export function issueMessage(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  return issue ? issueSentence(issue, issue.path.map(String).join('.')) : 'Invalid input';
}

/**
 * A request the type provider's validator refused, as the product's 400: the first issue's sentence, word for word
 * what the server always answered. Null for any other error.
 */
export function refusedInput(err: unknown): HttpError | null {
  if (!hasZodFastifySchemaValidationErrors(err)) return null;
  const first = err.validation[0];
  return badRequest(
    issueSentence({ code: first.keyword, message: first.message ?? '' }, first.instancePath.split('/').filter(Boolean).join('.')),
  );
}

/** The path of the first string holding a NUL character: PostgreSQL text cannot store one, so it is bad input. */
export function nulField(value: unknown): string | null {
  const path = nulPath(value);
  return path === null ? null : path.join('.') || 'input';
}

/** The keys down to the first string holding a NUL character (innermost last), or null; nothing is made on the way. */
function nulPath(value: unknown): string[] | null {
  if (typeof value === 'string') return value.includes('\0') ? [] : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = nulPath(value[i]);
      if (hit !== null) return [String(i), ...hit];
    }
  } else if (value && typeof value === 'object') {
    for (const k of Object.keys(value)) {
      const hit = nulPath((value as Record<string, unknown>)[k]);
      if (hit !== null) return [k, ...hit];
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
export function baseUrl(s: Pick<Services, 'config'>, req: FastifyRequest): string {
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

export async function authenticate(s: CallServices, req: FastifyRequest, allowKeys: boolean, sessionInQuery = false): Promise<Caller> {
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
  const v = s.tokens.verify(token, 'session');
  if (!v.ok || !v.claims.sid) throw !v.ok && v.reason === 'expired' ? tokenExpired() : unauthorized('Invalid token');
  const user = { kind: 'user' as const, stamp: v.claims.sub, email: v.claims.email, username: v.claims.username, session: v.claims.sid };
  if (sessionInQuery) return { ...user, sessionPending: true };
  // A good signature is not enough: the session must still be current (not logged out, not ended by a password
  // reset), read from the database on every call so every API process agrees at once.
  if (!(await s.sessions.current(v.claims.sid, v.claims.sub))) throw tokenExpired();
  await s.sessions.touch(v.claims.sid);
  return user;
}

/** What a call's preValidation hook found: the caller (bearer calls) or the reset token (reset calls). */
interface SignedIn {
  caller: Caller;
  reset?: { user: string; jti: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the call's preValidation hook found (defineCall); null until then, and for calls of no one. */
    signedIn: SignedIn | null;
  }
}

/** Gives every request its `signedIn` slot, once, on the app that the call groups are registered on. */
export function decorateCalls(app: FastifyInstance): void {
  app.decorateRequest('signedIn', null);
}
const NOBODY: Caller = { kind: 'user', stamp: '', email: '', username: '' };

/**
 * The type provider's validator, which parses (coerces, trims, defaults) the query or body before the handler; a
 * request without a body is read as an empty one, so its 400 names the first field it lacks.
 */
export const contractValidator: FastifySchemaCompiler<z.ZodMiniType> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => validate(data ?? {});
};

/**
 * Answers are written as they are with JSON.stringify (the hot lists send prepared JSON texts, which never come
 * here). With `check` (every server the tests boot: PORTAL_CHECK_ANSWERS), each answer is first read back through
 * its call's response schema, as a client reads it off the wire: one that does not match is a 500, which fails the
 * test that made the call.
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

export function defineCall<N extends CallName, S extends CallServices>(
  app: ContractApp,
  s: S,
  name: N,
  opts: CallOptions,
  handler: (ctx: CallContext<N, S>) => Promise<CallResponse<N>>,
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
    // The contract's schemas: the query and body validated before the handler (a refusal is answered by the app's
    // error handler with refusedInput's sentence), the answer written and, in the tests, checked against the response.
    schema: {
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: { 200: def.response },
    },
    // Who calls comes first: a request without a good token is a 401 whatever its query or body.
    preValidation: async (req) => {
      let caller = NOBODY;
      let reset: CallContext<N, S>['reset'];
      if (def.auth === 'bearer') caller = await authenticate(s, req, !!opts.keys, opts.sessionInQuery);
      if (def.auth === 'reset') {
        const token = bearerOf(req);
        if (!token) throw tokenMissing();
        const v = s.tokens.verify(token, 'reset');
        if (!v.ok || !v.claims.jti) throw v.ok ? unauthorized() : v.reason === 'expired' ? tokenExpired() : unauthorized();
        reset = { user: v.claims.sub, jti: v.claims.jti };
      }
      const nul = nulField(req.query) ?? nulField(req.body);
      if (nul !== null) throw badRequest(`${nul}: ${NUL_MESSAGE}`);
      if (caller !== NOBODY || reset) req.signedIn = { caller, reset };
    },
    handler: async (req, reply) => {
      const found = req.signedIn;
      const caller = found?.caller ?? { ...NOBODY };
      const result = await handler({
        s,
        req,
        reply,
        caller,
        reset: found?.reset,
        base: baseUrl(s, req),
        // Parsed by the schemas above; a call without one gets undefined, whatever the request carried.
        query: (def.query ? req.query : undefined) as CallContext<N, S>['query'],
        body: (def.body ? req.body : undefined) as CallContext<N, S>['body'],
      });
      if (caller.kind === 'user' && caller.sessionPending) throw new Error(`${name} answered without reading the session row`);
      // A call whose statement read the session notes its use here, as authenticate does for the others.
      if (opts.sessionInQuery && caller.kind === 'user' && caller.session) await s.sessions.touch(caller.session);
      // A handler that wrote a prepared JSON text itself has already answered; one that answers with a stream returns
      // the reply (still being written).
      if (reply.sent || (result as unknown) === reply) return reply;
      return reply.send(result);
    },
  });
}
