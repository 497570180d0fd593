// The published contract: GET /api/openapi.json (generated once at start from core's contract and what the routes
// declared of each call) and /api/docs, the reference page Swagger UI renders from it, every asset served from here.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import fastifyStatic from '@fastify/static';
import { API_DOCS_PATH, OPENAPI_PATH, type CallName } from '@portal/core';
import { openApiDocument, type CallRoute } from '../openapi';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract's call this route serves (set by defineCall). */
    call?: CallName;
    /** Client API keys may make the call. */
    keys?: boolean;
  }
}

/** Swagger UI's own files the page loads; nothing else of its package is served. */
const DOCS_ASSETS: ReadonlySet<string> = new Set(['/swagger-ui.css', '/swagger-ui-bundle.js', '/favicon-32x32.png', '/favicon-16x16.png']);

// Links are relative (the page is /api/docs, so `docs/...` and `openapi.json` are under /api/), which keeps them right
// behind a proxy that serves the API under a path. The page runs no inline script: the CSP allows none.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Portal API reference</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
<link rel="icon" type="image/png" href="docs/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="reference"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

/** Swagger UI on the document; no call to its online validator, so the page works offline. */
const INIT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH.replace(/^\/api\//, ''))},
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  displayOperationId: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/**
 * Registered before the call routes, not encapsulated (fastify-plugin): it hears each of them (onRoute), whatever
 * group registers it, and builds the document when the app is ready.
 */
async function reference(app: FastifyInstance, { version }: { version: string }): Promise<void> {
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

  app.get(API_DOCS_PATH, (_req, reply) => {
    reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(PAGE);
  });
  app.get(`${API_DOCS_PATH}/init.js`, (_req, reply) => {
    reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(INIT);
  });
  await app.register(fastifyStatic, {
    root: dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')),
    prefix: `${API_DOCS_PATH}/`,
    decorateReply: false,
    index: false,
    allowedPath: (path) => DOCS_ASSETS.has(path),
    cacheControl: false,
    setHeaders: (reply) => void reply.header('cache-control', 'public, max-age=86400'),
  });
}

export const referenceRoutes = fp(reference, { name: 'portal-reference', fastify: '5.x' });
