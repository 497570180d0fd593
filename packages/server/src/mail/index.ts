// Outgoing mail: SMTP when SMTP_URL is set, else the server's log plus a file per mail in DATA_DIR/outbox. Both are
// built by nodemailer: headers are its work alone (a CR/LF in a client's name cannot add a header), and an outbox
// file is the same RFC 5322 message SMTP would carry (`.eml`, opens in any mail program).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailDelivery } from '@portal/core';
import { newId } from '../ids';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Where mail goes: a mail service (SMTP), or the outbox folder and the log (none configured). */
  readonly delivery?: MailDelivery;
}

interface Transport {
  sendMail(m: object): Promise<{ message?: Buffer | string }>;
}

/** Loaded on first use: most starts never send mail. */
const transport = (options: string | object): (() => Promise<Transport>) => {
  let made: Promise<Transport> | null = null;
  return () => (made ??= import('nodemailer').then((n) => n.default.createTransport(options as never) as unknown as Transport));
};

export function openMailer(opts: { smtpUrl?: string; dataDir: string; log: (msg: string) => void }): Mailer {
  const from = process.env.MAIL_FROM || 'Portal <no-reply@localhost>';
  if (opts.smtpUrl) {
    const smtp = transport(opts.smtpUrl);
    return {
      delivery: 'smtp',
      async send(m) {
        await (await smtp()).sendMail({ from, ...m });
      },
    };
  }
  const outbox = join(opts.dataDir, 'outbox');
  // The message as SMTP would send it, handed back as bytes instead of sent.
  const stream = transport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    delivery: 'outbox',
    async send(m) {
      const { message } = await (await stream()).sendMail({ from, ...m });
      await mkdir(outbox, { recursive: true });
      const file = join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.eml`);
      await writeFile(file, message ?? '', { mode: 0o600 });
      opts.log(`Mail to ${JSON.stringify(m.to)} (${JSON.stringify(m.subject)}) written to ${file}:\n${m.text}`);
    },
  };
}
