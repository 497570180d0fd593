// The published contract: GET /api/openapi.json (generated once at start from core's contract and what the routes
// declared of each call).
import type { FastifyInstance } from 'fastify';
import type { CallName } from '@portal/core';
import { openApiDocument, type CallRoute } from '../openapi';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's call this route serves (set by defineCall). */
    call?: CallName;
    /** Client API keys may make the call. */
    keys?: boolean;
  }
}

export const OPENAPI_PATH = '/api/openapi.json';

/** Registered before the call routes: it hears each of them (onRoute) and builds the document when the app is ready. */
export function referenceRoutes(app: FastifyInstance, version: string): void {
  const routes = new Map<CallName, CallRoute>();
  app.addHook('onRoute', (route) => {
    const config = route.config;
    if (config?.call) routes.set(config.call, { keys: !!config.keys, rateLimit: 'rateLimit' in config });
  });
  let document = '';
  app.addHook('onReady', (done) => {
    document = JSON.stringify(openApiDocument({ version, routes }));
    done();
  });
  app.get(OPENAPI_PATH, (_req, reply) => {
    reply.header('cache-control', 'no-cache').type('application/json; charset=utf-8').send(document);
  });
}
