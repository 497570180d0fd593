// Servers that misbehave on purpose, for the CLI's failure modes: one that accepts connections and never answers,
// one that records what it is sent (to show a token never reaches it), and a port nothing listens on.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface TestServer {
  url: string;
  /** What it was sent (the recording server), or the connections it accepted (the silent one). */
  seen: Recorded[];
  close(): Promise<void>;
}

async function listen(server: Server, seen: Recorded[]): Promise<TestServer> {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}

/** Accepts every connection and request, reads it, and never answers. */
export function silentServer(): Promise<TestServer> {
  const seen: Recorded[] = [];
  const server = createServer((req) => void seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers }));
  return listen(server, seen);
}

/** Answers every request with this status and JSON body, recording what it was sent. */
export function recordingServer(status = 200, body: unknown = { ok: true }, headers: Record<string, string> = {}): Promise<TestServer> {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body)));
  });
  return listen(server, seen);
}

/** The URL of a port nothing listens on (taken from the system, then released). */
export async function closedPort(): Promise<string> {
  const s = await listen(createServer(), []);
  await s.close();
  return s.url;
}
