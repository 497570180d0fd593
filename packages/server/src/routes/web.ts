// The built web portal on the same origin: static files, and index.html for client routes (the app routes them).
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@portal/core';
import { codeForStatus } from '../errors';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portal</title></head>
<body style="font-family:system-ui,sans-serif;padding:2rem"><h1>The web portal is not built</h1>
<p>The API is running. Build the portal with <code>npm run build</code> (it writes packages/web/dist), then restart the server.</p></body></html>`;

export async function webRoutes(app: FastifyInstance, webDist: string) {
  const built = existsSync(join(webDist, 'index.html'));
  if (built) await app.register(fastifyStatic, { root: webDist, wildcard: false, index: ['index.html'] });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(path);
    if (!wantsPage) {
      return reply.code(404).send({ error: { code: codeForStatus(404), message: MESSAGES.notFound } });
    }
    if (built) return reply.type('text/html; charset=utf-8').sendFile('index.html');
    return reply.type('text/html; charset=utf-8').send(NOT_BUILT);
  });
}
