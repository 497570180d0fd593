// The OpenAPI 3.1 document of the API, generated from core's contract (CALLS, its zod schemas and CALL_REFERENCE)
// by zod's own JSON Schema converter: nothing in it is written by hand but the summaries beside the calls.
import * as z from 'zod/mini';
import { CALL_GROUPS, CALL_REFERENCE, ERROR_CODES, MESSAGES, LIST_PAGE_MAX, type CallDef, type CallName } from '@portal/core';
import { contractExports } from '@portal/core/contract/named';
import { CALLS, TitleCreate, TitleRename } from '@portal/core/contract/table';
import { issueMessage } from './routes/define';

/** What the routes tell of a call beyond the contract (set by defineCall): API keys may make it, attempts are limited. */
export interface CallRoute {
  keys: boolean;
  rateLimit: boolean;
}

type Json = Record<string, unknown>;

const SCHEMA_PREFIX = '#/components/schemas/';

/** What the reference page and clients read about the paging and narrowing parameters. */
const PARAMETER_TEXTS: Record<string, string> = {
  limit: `Page size (1-${LIST_PAGE_MAX}): the answer is one page, with \`next\` beside \`list\`. Without limit and cursor the whole list is answered.`,
  cursor: 'The `next` of the page before; answered `null` on the last page.',
  order: 'With a page: newest or oldest first.',
  q: 'With a page: only names containing this text (any case).',
  active: '1 for the active rows (what the portal lists), 0 for removed ones.',
  client: "The client's id (stamp).",
  bucket: "The project's id (stamp).",
};

const errorExample = (code: string, message: string) => ({ value: { error: { code, message } } });

/** The error answers every call may give, each with SPEC's sentence (or the server's own) as its example. */
function errorResponses(): Json {
  const answer = (description: string, examples: Record<string, { value: unknown }>) => ({
    description,
    content: { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}ErrorBody` }, examples } },
  });
  return {
    BadRequest: answer('The query or body is not valid: the message names the field and what to fix.', {
      titleCreate: errorExample(ERROR_CODES.invalid, MESSAGES.titleCreate),
    }),
    Unauthorized: answer('No token, an expired one, or one that is not valid (wrong credentials on sign-in).', {
      tokenMissing: errorExample(ERROR_CODES.tokenMissing, MESSAGES.tokenMissing),
      tokenExpired: errorExample(ERROR_CODES.tokenExpired, MESSAGES.tokenExpired),
      invalidCredentials: errorExample(ERROR_CODES.unauthorized, MESSAGES.invalidCredentials),
    }),
    Forbidden: answer("The caller's role or key may not do this.", { forbidden: errorExample(ERROR_CODES.forbidden, MESSAGES.forbidden) }),
    NotFound: answer('The id names nothing the caller can see.', { notFound: errorExample(ERROR_CODES.notFound, MESSAGES.notFound) }),
    Conflict: answer('The row is not in a state that allows this.', {
      conflict: errorExample(ERROR_CODES.conflict, 'This request has already been started.'),
    }),
    TooManyRequests: answer('Too many attempts from this address: wait a minute (Retry-After).', {
      rateLimited: errorExample(ERROR_CODES.rateLimited, MESSAGES.rateLimited),
    }),
    Internal: answer('The server failed; the request can be tried again.', {
      unexpected: errorExample(ERROR_CODES.internal, MESSAGES.unexpected),
    }),
  };
}

/** Every zod schema of the contract, named as core names it, so the document's components read as the contract does. */
function contractRegistry(): z.core.$ZodRegistry<{ id: string }> {
  const registry = z.registry<{ id: string }>();
  for (const [name, value] of Object.entries(contractExports())) {
    if (/^[A-Z]/.test(name) && value instanceof z.ZodMiniType && !registry.has(value)) registry.add(value, { id: name });
  }
  // A call's schema that core does not export by name is named after the call.
  for (const [name, def] of Object.entries(CALLS) as Array<[CallName, CallDef]>) {
    for (const part of ['query', 'body', 'response'] as const) {
      const schema = def[part];
      if (schema && !registry.has(schema))
        registry.add(schema, { id: `${name[0].toUpperCase()}${name.slice(1)}${part[0].toUpperCase()}${part.slice(1)}` });
    }
  }
  return registry;
}

/** The $refs a value holds, for keeping only the components the paths reach. */
function refsOf(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) refsOf(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMA_PREFIX)) into.add(v.slice(SCHEMA_PREFIX.length));
      else refsOf(v, into);
    }
  }
}

/** The sentence the server answers to an empty query or body, from the call's own schema. */
function emptyInputExample(schema: z.ZodMiniType): string | null {
  const r = schema.safeParse({});
  return r.success ? null : issueMessage(r.error);
}

function operation(
  name: CallName,
  def: CallDef,
  route: CallRoute | undefined,
  schemas: Record<string, Json>,
  idOf: (s: z.ZodMiniType) => string,
) {
  const ref = CALL_REFERENCE[name];
  const description: string[] = [];
  if (!ref.spec) description.push('An addition beyond SPEC section 7.');
  if (def.failure) description.push(`When it fails the portal shows: "${def.failure}".`);
  if (route?.keys) description.push('Client API keys may make this call for their own client.');
  const op: Json = {
    operationId: name,
    summary: ref.summary,
    tags: [ref.group],
    'x-spec': !!ref.spec,
  };
  if (description.length) op.description = description.join(' ');
  if (def.auth === 'none') op.security = [];
  else if (def.auth === 'basic') op.security = [{ basic: [] }];
  else if (def.auth === 'reset') op.security = [{ resetToken: [] }];
  else op.security = route?.keys ? [{ session: [] }, { apiKey: [] }] : [{ session: [] }];

  if (def.query) {
    const q = schemas[idOf(def.query)] as { properties?: Record<string, Json>; required?: string[] };
    op.parameters = Object.entries(q.properties ?? {}).map(([param, schema]) => ({
      name: param,
      in: 'query',
      required: (q.required ?? []).includes(param),
      schema,
      ...(PARAMETER_TEXTS[param] ? { description: PARAMETER_TEXTS[param] } : {}),
    }));
  }
  if (def.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}${idOf(def.body)}` } } },
    };
  }
  const responses: Json = {
    200: {
      description: def.stream ? `${ref.summary}. Each line of the answer is one ${idOf(def.response)}.` : ref.summary,
      content: { [def.stream ?? 'application/json']: { schema: { $ref: `${SCHEMA_PREFIX}${idOf(def.response)}` } } },
    },
  };
  const input = def.body ?? def.query;
  if (input) {
    const examples: Record<string, unknown> = {};
    const empty = emptyInputExample(input);
    if (empty) examples.empty = errorExample(ERROR_CODES.invalid, empty);
    const shape = (input as { shape?: Record<string, unknown> }).shape ?? {};
    if (shape.name === TitleCreate) examples.title = errorExample(ERROR_CODES.invalid, MESSAGES.titleCreate);
    if (shape.name === TitleRename) examples.title = errorExample(ERROR_CODES.invalid, MESSAGES.titleRename);
    responses[400] = Object.keys(examples).length
      ? {
          description: 'The query or body is not valid: the message names the field and what to fix.',
          content: { 'application/json': { schema: { $ref: `${SCHEMA_PREFIX}ErrorBody` }, examples } },
        }
      : { $ref: '#/components/responses/BadRequest' };
  }
  if (def.auth !== 'none') responses[401] = { $ref: '#/components/responses/Unauthorized' };
  if (def.auth === 'bearer') {
    responses[403] = { $ref: '#/components/responses/Forbidden' };
    responses[404] = { $ref: '#/components/responses/NotFound' };
  }
  if (route?.rateLimit) responses[429] = { $ref: '#/components/responses/TooManyRequests' };
  responses[500] = { $ref: '#/components/responses/Internal' };
  op.responses = responses;
  return op;
}

export interface OpenApiOptions {
  version: string;
  /** What the server's routes declared of each call (health and ready are plain routes, with neither). */
  routes: ReadonlyMap<CallName, CallRoute>;
}

/** The document, built once per process from the contract (see routes/reference.ts). */
export function openApiDocument(opts: OpenApiOptions): Json {
  const registry = contractRegistry();
  const converted = z.toJSONSchema(registry, { io: 'input', unrepresentable: 'any', uri: (id) => `${SCHEMA_PREFIX}${id}` }) as {
    schemas: Record<string, Json>;
  };
  const schemas: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(converted.schemas)) {
    const { $schema: _drop, $id: _id, ...rest } = schema;
    schemas[id] = rest;
  }
  const idOf = (s: z.ZodMiniType) => registry.get(s)!.id;

  const paths: Record<string, Record<string, Json>> = {};
  for (const [name, def] of Object.entries(CALLS) as Array<[CallName, CallDef]>) {
    (paths[def.path] ??= {})[def.method.toLowerCase()] = operation(name, def, opts.routes.get(name), schemas, idOf);
  }
  // Query schemas become parameters; the components keep only what the paths and error answers reach.
  const reached = new Set<string>(['ErrorBody']);
  refsOf(paths, reached);
  for (let grown = true; grown;) {
    const before = reached.size;
    for (const id of [...reached]) refsOf(schemas[id], reached);
    grown = reached.size > before;
  }
  const components: Record<string, Json> = {};
  for (const id of [...reached].sort()) components[id] = schemas[id];

  return {
    openapi: '3.1.0',
    info: {
      title: 'Portal API',
      version: opts.version,
      summary: "The data-embedding service's API: projects, uploads, requests, models, keys, team and billing.",
      description:
        'Every call answers JSON. Errors answer `{"error": {"code", "message"}}` with a sentence that says what to fix. ' +
        'Lists take `limit` and `cursor` and answer `next` (null on the last page); without them the whole list is answered. ' +
        'Sign in with `POST /api/user/login` for a session token, or use a client API key (`pk_...`) where a call allows it; ' +
        'send either as `Authorization: Bearer <token>`.',
    },
    servers: [{ url: '/' }],
    tags: CALL_GROUPS.map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      responses: errorResponses(),
      securitySchemes: {
        session: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A session token from sign-in (login, signup, loginOtp, refresh).',
        },
        apiKey: { type: 'http', scheme: 'bearer', description: "A client API key (pk_...), made on the portal's API keys page." },
        basic: { type: 'http', scheme: 'basic', description: 'The email and password, for the password step of sign-in.' },
        resetToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "The token of a password reset link (its URL's token).",
        },
      },
    },
  };
}
