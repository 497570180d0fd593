// Security headers on every response: a CSP for the web app (its own scripts; inline styles for Emotion/MUI),
// no framing, no sniffing. Computed once at start, since they never vary per request.
import type { Socket } from 'node:net';
import { ERROR_CODES } from '@portal/core';
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

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a control character in a header, headers too
 * large, a timeout) get the API's error envelope and the security headers too, rather than a bare default body.
 */
export function clientErrorHandler(config: Config): (err: NodeJS.ErrnoException, socket: Socket) => void {
  const headers = Object.entries(securityHeaders(config))
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (err, socket) => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, reason, message] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request Header Fields Too Large', 'The request headers are too large.']
          : [400, 'Bad Request', 'The request is malformed (its headers or framing are not valid HTTP).'];
    const body = JSON.stringify({ error: { code: ERROR_CODES.invalid, message } });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
