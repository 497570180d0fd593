// Security headers on every response: a CSP for the web app (its own scripts; inline styles for Emotion/MUI),
// no framing, no sniffing. Computed once at start, since they never vary per request.
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';

export function contentSecurityPolicy(config: Config): string {
  const connect = ["'self'"];
  if (config.storageUrl) {
    // Browsers PUT upload bytes straight to the object store's pre-signed URLs.
    const endpoint = new URL(config.storageUrl).searchParams.get('endpoint');
    connect.push(endpoint ? new URL(endpoint).origin : 'https://*.amazonaws.com');
  }
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(config: Config): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(config),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeaders(config);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
}
