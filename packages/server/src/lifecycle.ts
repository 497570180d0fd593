// How long clients may take and how the process stops: header, request and keep-alive timeouts (upload bytes
// excepted while they keep moving), and the drain a SIGTERM starts (readiness fails at once, responses close their
// connections, then the port closes and what is in flight finishes).
import type { FastifyHttpOptions, FastifyReply, FastifyRequest } from 'fastify';
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
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
 * A request's body deadline, started by the one onRequest hook (plugins/security.ts): every call's body must have
 * arrived within REQUEST_TIMEOUT_S of its start, except the calls named by `streamsBody` (upload bytes), which may
 * take as long as their bytes keep moving: they are cut only after UPLOAD_IDLE_TIMEOUT_S without one.
 */
export function bodyDeadline(
  c: Timeouts,
  streamsBody: (method: string, route?: string) => boolean,
): (req: FastifyRequest, reply: FastifyReply) => void {
  return (req, reply) => {
    const raw = req.raw;
    // Nothing more to arrive: the whole request is in (most GETs), so there is no deadline to keep.
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    if (raw.complete || !hasBody) return;
    const socket = raw.socket;
    if (streamsBody(req.method, req.routeOptions.url)) {
      socket.setTimeout(c.uploadIdleTimeoutS * 1000, () => socket.destroy());
      raw.once('end', () => socket.setTimeout(0));
      return;
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
  };
}

/** How long a connection open when the port closes may stay idle before it is closed. */
export const CLOSE_GRACE_MS = 1000;

export const CLOSING_MESSAGE = 'This server is restarting and took no new request on this connection: send it again.';

/** Per open connection: the requests it has carried (the one running included) and the response being written. */
interface Carried {
  requests: number;
  running: ServerResponse | null;
}

/**
 * The server's open connections and what each has carried: how the process drains. While it drains (`drain`),
 * every response closes its connection, so balancers and clients open new ones elsewhere. Once it has stopped
 * accepting (`closed`), a request on a connection that carried one before (a kept-alive one) is answered 503 in
 * the product's envelope with `Connection: close` before anything of it runs, so it is safe to send again; the
 * first request of a connection accepted before the port closed is served (its sender gave it to this process and
 * cannot know it was late), and so is every request already running.
 * A request is counted by `admit` and `finished`, from the security plugin's hooks, rather than by listeners of its
 * own on the server and on its response: two function calls a request instead of two listeners.
 */
export class Connections {
  private readonly open = new Map<Socket, Carried>();

  constructor(
    private readonly server: Server,
    private readonly lifecycle: Services['lifecycle'],
  ) {
    server.on('connection', (socket: Socket) => {
      this.open.set(socket, { requests: 0, running: null });
      socket.once('close', () => this.open.delete(socket));
    });
  }

  /** A request begins: counted on its connection. False when it has been answered 503 (the port has closed). */
  admit(req: FastifyRequest, reply: FastifyReply): boolean {
    const carried = this.open.get(req.raw.socket);
    const before = carried ? carried.requests++ : 0;
    if (carried) carried.running = reply.raw;
    if (!this.lifecycle.stopping) return true;
    reply.header('connection', 'close');
    if (!this.lifecycle.closed || before === 0) return true;
    reply
      .code(503)
      .header('retry-after', '1')
      .send({ error: { code: ERROR_CODES.notReady, message: CLOSING_MESSAGE } });
    return false;
  }

  /**
   * A request's response has been written (onResponse): its connection no longer holds it, so nothing of a finished
   * request outlives it on a kept-alive connection. A connection that closes first is forgotten with what it held.
   */
  finished(req: FastifyRequest, reply: FastifyReply): void {
    const carried = this.open.get(req.raw.socket);
    if (carried?.running === reply.raw) carried.running = null;
  }

  /** The drain begins: readiness fails, and every response not yet written, those of running requests too, closes its connection. */
  drain(): void {
    this.lifecycle.stopping = true;
    for (const { running } of this.open.values()) if (running && !running.headersSent) running.setHeader('connection', 'close');
  }

  /**
   * Stops accepting (`closed`) and lets the open connections end: a running request finishes (its response closes the
   * connection); a connection accepted but not yet sending gets at least `graceMs` to send its request, which is
   * served; an idle kept-alive one is closed after one to two `graceMs` (a late request on it meanwhile is answered
   * as `admit` says).
   * Node's own http close would instead reset at once every connection without a request running, a just-accepted
   * one included, whose request a balancer has sent and cannot send again. Resolves when every connection has ended;
   * the caller cuts them off at its own deadline.
   */
  closeGently(graceMs: number): Promise<void> {
    this.lifecycle.closed = true;
    const ended = new Promise<void>((resolve) => NetServer.prototype.close.call(this.server, () => resolve()));
    // Bytes read from each connection at the last check: one that read nothing since, with no request running, is idle.
    const read = new WeakMap<Socket, number>();
    for (const socket of this.open.keys()) read.set(socket, socket.bytesRead);
    const check = () => {
      for (const [socket, { running }] of this.open) {
        if (running === null && read.get(socket) === socket.bytesRead) socket.destroySoon();
        else read.set(socket, socket.bytesRead);
      }
    };
    // Each check runs after the event loop's next round of I/O (setImmediate): a timer of a busy process runs before
    // the bytes already waiting on a socket are read, and would reset a connection whose request has arrived.
    const idle = setInterval(() => setImmediate(check), graceMs);
    return ended.finally(() => clearInterval(idle));
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
