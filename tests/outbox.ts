// The embedded mailer's outbox for the end-to-end tests: each file is the RFC 5322 message nodemailer built, read
// here as a person would (the end-to-end tests depend on core only; the test kit's mailText does the same for its own).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The message with its body's transfer encoding (quoted-printable or base64) undone. */
export function mailText(raw: string): string {
  const at = raw.indexOf('\n\n') + 2;
  const encoding = /^Content-Transfer-Encoding: *(\S+)/im.exec(raw.slice(0, at))?.[1].toLowerCase();
  if (encoding === 'base64') return raw.slice(0, at) + Buffer.from(raw.slice(at), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return raw;
  const bytes = raw
    .slice(at)
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return raw.slice(0, at) + Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Every mail in DATA_DIR/outbox, oldest first (file names start with the time), decoded; [] before the first. */
export function outboxMails(dataDir: string): string[] {
  const dir = join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((f) => mailText(readFileSync(join(dir, f), 'utf8')));
}
