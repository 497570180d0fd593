// Outgoing mail: SMTP when SMTP_URL is set, else the server's log plus a file per mail in DATA_DIR/outbox.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newId } from '../ids';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function openMailer(opts: { smtpUrl?: string; dataDir: string; log: (msg: string) => void }): Mailer {
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    const from = process.env.MAIL_FROM || 'Portal <no-reply@localhost>';
    // Loaded on first use: most starts never send mail.
    let transport: Promise<{ sendMail(m: object): Promise<unknown> }> | null = null;
    return {
      async send(m) {
        transport ??= import('nodemailer').then((n) => n.default.createTransport(smtpUrl));
        await (await transport).sendMail({ from, ...m });
      },
    };
  }
  const outbox = join(opts.dataDir, 'outbox');
  return {
    async send(m) {
      await mkdir(outbox, { recursive: true });
      const file = join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newId()}.txt`);
      await writeFile(file, `To: ${m.to}\nSubject: ${m.subject}\n\n${m.text}\n`, { mode: 0o600 });
      opts.log(`Mail to ${m.to} ("${m.subject}") written to ${file}:\n${m.text}`);
    },
  };
}
