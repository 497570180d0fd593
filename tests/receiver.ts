// A webhook receiver on 127.0.0.1 for the end-to-end tests (terminal and browser): answers each POST with the next of
// the statuses it was given (then 200), keeping what it got.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

const open: Server[] = [];

export async function webhookReceiver(statuses: number[] = []): Promise<{ url: string; got: Received[] }> {
  const got: Received[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      got.push({ body, headers: req.headers });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
    });
  });
  open.push(s);
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hooks`, got };
}

/** Closes every receiver made so far (after a file's tests). */
export function closeReceivers(): void {
  for (const s of open.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
}
