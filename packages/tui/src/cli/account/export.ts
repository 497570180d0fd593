// `portal account export`: see its summary.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ACCOUNT_EXPORT_ROWS_MAX, ACCOUNT_MESSAGES, ACCOUNT_EXPORT_SECTIONS, accountExportName } from '@portal/core';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'export',
  summary: `Save everything your account holds as one JSON file: profile, clients, projects, uploads, requests, models, keys' and integrations' details (never their secrets), audit log; at most ${ACCOUNT_EXPORT_ROWS_MAX} rows a section`,
  flags: [
    {
      flags: '-o, --output <file>',
      description: 'write to this file ("-" for standard output) instead of portal-<username>-<date>.json here',
    },
  ],
  examples: ['portal account export', 'portal account export --output my-data.json', 'portal account export -o - | jq .projects'],
};

export interface ExportDataOptions {
  output?: string;
}

export async function run(opts: ExportDataOptions, s: Session): Promise<void> {
  const data = await (await s.api()).calls.accountExport();
  const text = `${JSON.stringify(data, null, 2)}\n`;
  if (opts.output === '-') return void s.deps.stdout.write(text);
  const file = resolve(s.deps.cwd, opts.output ?? accountExportName(data.user.username, data.exportedAt));
  await writeFile(file, text, { mode: 0o600 });
  const counts = Object.fromEntries(ACCOUNT_EXPORT_SECTIONS.map((k) => [k, data[k].length]));
  s.out.done({ file, bytes: Buffer.byteLength(text), ...counts, truncated: data.truncated }, ACCOUNT_MESSAGES.exported(file));
  if (data.truncated.length) s.out.notice(`Cut at ${ACCOUNT_EXPORT_ROWS_MAX} rows: ${data.truncated.join(', ')}.`);
}
