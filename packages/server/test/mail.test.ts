// Password-reset mail over SMTP (SMTP_URL), against a minimal SMTP sink that records what it receives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { call, signup, startServer, waitFor, type TestServer } from './harness';

function smtpSink(received: string[]): Promise<{ server: Server; port: number }> {
  return smtpSinkOn(received, 0);
}

function smtpSinkOn(received: string[], port: number): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    let data = false;
    let buf = '';
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk) => {
      buf += chunk.toString();
      if (data) {
        const end = buf.indexOf('\r\n.\r\n');
        if (end < 0) return;
        received.push(buf.slice(0, end));
        buf = buf.slice(end + 5);
        data = false;
        socket.write('250 queued\r\n');
      }
      let i: number;
      while (!data && (i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 sink\r\n');
        else if (verb === 'DATA') {
          data = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })),
  );
}

describe('password-reset mail over SMTP', () => {
  const received: string[] = [];
  let sink: Server;
  let srv: TestServer;

  beforeAll(async () => {
    const s = await smtpSink(received);
    sink = s.server;
    srv = await startServer('embedded', {
      worker: false,
      smtpUrl: `smtp://127.0.0.1:${s.port}?ignoreTLS=true`,
      publicUrl: 'https://portal.example.com',
    });
  });
  afterAll(async () => {
    await srv?.close();
    sink?.close();
  });

  it('sends the reset link on PUBLIC_URL by SMTP, and nothing for an unknown address', async () => {
    const U = await signup(srv.url, 'mail');
    expect((await call(srv.url, 'resetStart', { body: { email: 'unknown@example.com' } })).status).toBe(200);
    expect((await call(srv.url, 'resetStart', { body: { email: U.email } })).status).toBe(200);
    const mail = await waitFor(async () => received.find((m) => m.includes(U.email)));
    expect(mail.replace(/=\r\n/g, '')).toContain('https://portal.example.com/reset-password?token=');
    expect(received).toHaveLength(1);
    expect(existsSync(join(srv.dataDir, 'outbox'))).toBe(false);
    // Sent: the mail's text (a live link) is no longer kept.
    const row = await srv.built.services.db.selectFrom('mails').selectAll().where('to_addr', '=', U.email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ body_enc: '', attempts: 1, last_error: null });
    expect(row.sent_at).not.toBeNull();
  });
});

describe('mail while the mail server is down', () => {
  it('is kept, counted and retried by the worker until the server answers, then sent once', async () => {
    // A port with nothing listening yet: the first attempt fails.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const srv = await startServer('embedded', {
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true&connectionTimeout=2000`,
      publicUrl: 'https://portal.example.com',
    });
    const received: string[] = [];
    let sink: Server | undefined;
    try {
      const U = await signup(srv.url, 'maildown');
      expect((await call(srv.url, 'resetStart', { body: { email: U.email } })).status).toBe(200);
      const db = srv.built.services.db;
      const failed = await waitFor(async () => {
        const row = await db.selectFrom('mails').selectAll().where('to_addr', '=', U.email).executeTakeFirst();
        return row && row.attempts >= 1 ? row : null;
      });
      expect(failed.sent_at).toBeNull();
      expect(failed.last_error).toBeTruthy();
      // The text is kept encrypted, never as the link itself.
      expect(failed.body_enc).not.toContain('reset-password');
      const metrics = await (await fetch(srv.metricsUrl!)).text();
      expect(metrics).toMatch(/^portal_mail_errors_total [1-9]/m);

      // The mail server comes up on that port; the retry job is made due now rather than in 15 s.
      sink = (await smtpSinkOn(received, port)).server;
      await db.updateTable('jobs').set({ run_after: 0 }).where('kind', '=', 'mail').where('ref', '=', failed.id).execute();
      srv.built.services.jobs.wake();
      const mail = await waitFor(async () => received.find((m) => m.includes(U.email)), 30_000);
      expect(mail.replace(/=\r\n/g, '')).toContain('https://portal.example.com/reset-password?token=');
      const sent = await waitFor(
        async () => (await db.selectFrom('mails').selectAll().where('id', '=', failed.id).executeTakeFirstOrThrow()).sent_at,
      );
      expect(sent).toBeGreaterThan(0);
      expect(received.filter((m) => m.includes(U.email))).toHaveLength(1);
    } finally {
      await srv.close();
      sink?.close();
    }
  }, 60_000);
});
