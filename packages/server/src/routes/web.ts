// The built web portal on the same origin: static files, and index.html for the paths of core's screen table (the
// app routes them); every other path is a real 404, so a probe or a typo is never answered by the portal's page.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { EMAIL_CONFIRM_PATH, MESSAGES, matchScreen } from '@portal/core';
import { codeForStatus } from '../errors';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Portal</title></head>
<body style="font-family:system-ui,sans-serif;padding:2rem"><h1>The web portal is not built</h1>
<p>The API is running. Build the portal with <code>npm run build</code> (it writes packages/web/dist), then restart the server.</p></body></html>`;

/** Not encapsulated (fastify-plugin): its not-found handler is the app's. */
async function web(app: FastifyInstance, { webDist }: { webDist: string }) {
  const built = existsSync(join(webDist, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: ['index.html'],
      // The build writes .br and .gz beside each text asset: sent as they are with Content-Encoding and Vary.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => void reply.header('cache-control', cacheControlFor(path)),
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    const read = req.method === 'GET' || req.method === 'HEAD';
    if (read && isScreenPath(path)) {
      if (built) return reply.type('text/html; charset=utf-8').sendFile('index.html');
      return reply.type('text/html; charset=utf-8').send(NOT_BUILT);
    }
    // A person's browser at an address of no screen (outside /api): still a 404, but the portal's page, which says
    // so and leads back, rather than the API's JSON. Scripts and probes (no text/html in Accept) get the JSON.
    if (read && built && !path.startsWith('/api/') && /\btext\/html\b/.test(String(req.headers.accept ?? ''))) {
      return reply.code(404).type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.code(404).send({ error: { code: codeForStatus(404), message: MESSAGES.notFound } });
  });
}

export const webRoutes = fp(web, { name: 'portal-web', fastify: '5.x' });

/** The build's assets/ folder holds only content-hashed names, which never change: a year, immutable; everything else is checked on every load. */
export function cacheControlFor(path: string): string {
  return /[\\/]assets[\\/][^\\/]+$/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * A path of the screen table, or the page the email-change link opens (the link is mailed by the server, so it is a
 * page whatever the screen table says yet); a malformed escape in a parameter is no screen.
 */
function isScreenPath(path: string): boolean {
  if (path === EMAIL_CONFIRM_PATH) return true;
  try {
    return matchScreen(path) !== null;
  } catch {
    return false;
  }
}
