// Every request's handling before and after its route: security headers, request ids, the access line, timeouts,
// the body parsers (hostile input bounded), the contract's compilers and the one error handler, in the product's
// envelope. Not encapsulated (fastify-plugin): it serves every route group registered after it.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ERROR_CODES, MESSAGES } from '@portal/core';
import type { Config } from '../config';
import type { DiskWatch } from '../disk';
import { REQUEST_ID_HEADER, inRequest, traceRequests } from '../context';
import { bodyDeadline, type Connections } from '../lifecycle';
import { HttpError, badRequest, codeForStatus, storageFull } from '../errors';
import { jsonTooDeep, TOO_DEEP_MESSAGE } from '../bodies';
import { securityHeaders } from '../security';
import { NUL_MESSAGE, contractSerializer, contractValidator, decorateCalls, refusedInput } from '../routes/define';
import { isUploadBytes } from '../routes/storage';

export interface SecurityOptions {
  config: Config;
  /** A full disk is answered 507 wherever it is met (a route's database write, a store's file call). */
  disk: DiskWatch;
  /** The server's connections, which count each request and refuse a late one while the process drains. */
  connections: Connections;
}

/** The levels at which the access line (level info) is written. */
const ACCESS_LOG_LEVELS: ReadonlySet<string> = new Set(['info', 'debug', 'trace']);

async function security(app: FastifyInstance, { config, disk, connections }: SecurityOptions) {
  const headers = securityHeaders(config);
  const deadline = bodyDeadline(config, isUploadBytes);
  // At LOG_LEVEL=debug every request runs in its own context, so its queries' lines carry its id (see context.ts).
  traceRequests(config.logLevel === 'debug' || config.logLevel === 'trace');
  // What every request gets first, in one hook (each hook is a step of Fastify's runner on every request): the
  // security headers and its id on the answer, its count on its connection (a late one refused while the process
  // drains), its body's deadline, then the rest of it in its context.
  app.addHook('onRequest', (req, reply, done) => {
    reply.headers(headers).header(REQUEST_ID_HEADER, req.id);
    if (!connections.admit(req, reply)) return;
    deadline(req, reply);
    inRequest(req.id, done);
  });
  // Once its response is written: its connection lets go of it, and the access line, when the level shows it.
  // Callback hooks, not async ones, on every request: an async hook costs a promise per request.
  const accessLine = ACCESS_LOG_LEVELS.has(config.logLevel);
  app.addHook('onResponse', (req, reply, done) => {
    connections.finished(req, reply);
    if (accessLine) {
      req.log.info(
        {
          req: { method: req.method, url: req.url, remoteAddress: req.ip },
          res: { statusCode: reply.statusCode },
          call: req.routeOptions.url,
          ms: Math.round(reply.elapsedTime * 10) / 10,
        },
        'request',
      );
    }
    done();
  });

  // An empty JSON body (curl -H 'content-type: application/json' -X POST) means no body, not an error;
  // anything else goes through Fastify's parser, which refuses __proto__ and constructor pollution.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (String(body).trim() === '') return done(null, undefined);
    // Before the parser and every walk after it (the NUL check, the schemas), which recurse per level.
    if (jsonTooDeep(body as string)) return done(badRequest(TOO_DEEP_MESSAGE), undefined);
    json(req, body as string, done);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  // Every call's query and body are validated against the contract's schemas before its handler, by the zod type
  // provider; its answer is written (and under PORTAL_CHECK_ANSWERS checked) against the contract (routes/define.ts).
  app.setValidatorCompiler(contractValidator);
  app.setSerializerCompiler(contractSerializer(config.checkAnswers));
  // Each call's caller, found by its preValidation hook, rides on the request (routes/define.ts).
  decorateCalls(app);

  app.setErrorHandler((err: FastifyError | HttpError, req, reply) => {
    if ((err instanceof HttpError && err.statusCode === 507) || disk.noteIfFull(err)) {
      const full = storageFull();
      return reply
        .code(full.statusCode)
        .headers(full.headers ?? {})
        .send({ error: { code: full.code, message: full.message } });
    }
    // A query or body the contract refuses: the 400 with the sentence that names what to fix.
    const refused = refusedInput(err);
    if (refused) return reply.code(400).send({ error: { code: refused.code, message: refused.message } });
    // Text the database cannot store (a NUL character, e.g. in Basic auth or a path) is bad input, not a failure.
    const dbCode = (err as { code?: unknown }).code;
    if (dbCode === '22021' || dbCode === '22P05') {
      return reply.code(400).send({ error: { code: ERROR_CODES.invalid, message: `Text ${NUL_MESSAGE}.` } });
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500) {
      req.log.error({ err }, 'Request failed');
      return reply.code(500).send({ error: { code: ERROR_CODES.internal, message: MESSAGES.unexpected } });
    }
    if (err instanceof HttpError && err.headers) reply.headers(err.headers);
    const code = err instanceof HttpError ? err.code : codeForStatus(status);
    // Library errors (bad JSON, wrong content type) carry a readable message and never a stack.
    const message = err instanceof HttpError ? err.message : status === 429 ? MESSAGES.rateLimited : err.message || MESSAGES.unexpected;
    return reply.code(status).send({ error: { code, message } });
  });
}

export default fp(security, { name: 'portal-security', fastify: '5.x' });
