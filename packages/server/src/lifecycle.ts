// How long clients may take and how the process stops: header, request and keep-alive timeouts (upload bytes
// excepted while they keep moving), and the drain a SIGTERM starts (readiness fails at once, responses close their
// connections, then the port closes and what is in flight finishes).
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import { ERROR_CODES } from '@portal/core';
import type { Config } from './config';
import type { Services } from './services';

type Timeouts = Pick<Config, 'headersTimeoutS' | 'requestTimeoutS' | 'keepAliveTimeoutS' | 'uploadIdleTimeoutS'>;

/** The HTTP server's own limits: headers within HEADERS_TIMEOUT_S, idle keep-alive connections closed after KEEPALIVE_TIMEOUT_S. */
export function serverTimeouts(
  c: Timeouts,
): Pick<FastifyHttpOptions<Server>, 'http' | 'keepAliveTimeout' | 'requestTimeout' | 'connectionTimeout'> {
  return {
    http: {
      headersTimeout: c.headersTimeoutS * 1000,
      // Node checks the header deadline on this beat (30 s by default, longer than the deadline itself).
      connectionsCheckingInterval: Math.min(1000, c.headersTimeoutS * 250),
    },
    keepAliveTimeout: c.keepAliveTimeoutS * 1000,
    // Node's request timeout counts a whole upload too: the body's deadline is kept per call below instead.
    requestTimeout: 0,
    connectionTimeout: 0,
  };
}

export const REQUEST_TIMEOUT_MESSAGE = 'The request took too long to arrive: send it again.';

/**
 * Every call's body must have arrived within REQUEST_TIMEOUT_S of its start, except the calls named by
 * `streamsBody` (upload bytes), which may take as long as their bytes keep moving: they are cut only after
 * UPLOAD_IDLE_TIMEOUT_S without one.
 */
export function registerRequestTimeouts(app: FastifyInstance, c: Timeouts, streamsBody: (method: string, route?: string) => boolean): void {
  app.addHook('onRequest', (req, reply, done) => {
    const raw = req.raw;
    // Nothing more to arrive: the whole request is in (most GETs), so there is no deadline to keep.
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (raw.complete || !hasBody) return done();
    const socket = raw.socket;
    if (streamsBody(req.method, req.routeOptions.url)) {
      socket.setTimeout(c.uploadIdleTimeoutS * 1000, () => socket.destroy());
      raw.once('end', () => socket.setTimeout(0));
      return done();
    }
    const timer = setTimeout(() => {
      if (raw.complete || reply.raw.headersSent) return;
      const body = JSON.stringify({ error: { code: ERROR_CODES.invalid, message: REQUEST_TIMEOUT_MESSAGE } });
      reply.raw.writeHead(408, { 'content-type': 'application/json; charset=utf-8', connection: 'close', 'x-request-id': req.id });
      reply.raw.end(body, () => socket.destroy());
    }, c.requestTimeoutS * 1000);
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    reply.raw.once('close', clear);
    done();
  });
}

/** While the process drains, every response closes its connection, so balancers and clients open new ones elsewhere. */
export function registerDrain(app: FastifyInstance, lifecycle: Services['lifecycle']): void {
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (lifecycle.stopping) reply.header('connection', 'close');
    done(null, payload);
  });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
