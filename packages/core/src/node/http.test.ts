import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PlainHeaders, plainFetch } from './http';

describe('PlainHeaders', () => {
  it('is case-insensitive, takes an object, pairs or another PlainHeaders, and iterates in lower case', () => {
    const h = new PlainHeaders({ 'Content-Type': 'application/json' });
    h.append('Accept', 'a/b');
    h.append('accept', 'c/d');
    expect(h.get('content-type')).toBe('application/json');
    expect(h.get('ACCEPT')).toBe('a/b, c/d');
    expect(h.has('Authorization')).toBe(false);
    const copy = new PlainHeaders(h);
    copy.delete('Accept');
    expect([...copy]).toEqual([['content-type', 'application/json']]);
    expect([...new PlainHeaders([['X-One', '1']]).entries()]).toEqual([['x-one', '1']]);
  });
});

// The race Node documents for kept-alive connections (the server closes an idle one just as a request goes out on
// it) cannot be timed against the real server; a peer that resets the second request on a connection stands in.
describe('a kept-alive connection reset before any answer', () => {
  let peer: Server;
  let base: string;
  const connections: Socket[] = [];
  beforeAll(async () => {
    peer = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      const socket = req.socket as Socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) return void socket.resetAndDestroy();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, port: socket.remotePort }));
    });
    peer.on('connection', (s) => connections.push(s));
    await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  });
  afterEach(() => connections.splice(0).forEach((s) => s.destroy()));
  afterAll(() => new Promise<void>((r) => peer.close(() => r())));

  it('is sent once more on a new connection', async () => {
    const first = (await (await plainFetch(`${base}/a`)).json()) as { port: number };
    const second = (await (await plainFetch(`${base}/b`)).json()) as { port: number };
    expect(second.port).not.toBe(first.port);
    expect(connections).toHaveLength(2);
  });
});
