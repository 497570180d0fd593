// `portal runs download`: download the results as ensemble_result_{date}_{time}.json in the current folder.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { resultFileName } from '@portal/core';
import { CliError } from '../errors';
import { runStatus } from './shared';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'download <id>',
  summary: 'Download the results as ensemble_result_{date}_{time}.json in the current folder',
  flags: [{ flags: '-o, --output <file>', description: 'write to this file instead ("-" for standard output)' }],
  examples: ['portal runs download <id>', 'portal runs download <id> -o - | jq length'],
};

export interface DownloadOptions {
  id: string;
  output?: string;
}

export async function run(opts: DownloadOptions, s: Session): Promise<void> {
  const { id } = opts;
  const status = await runStatus(s, id);
  if (!status.run.url) throw new CliError(`Request ${id} has no results yet (status ${status.run.record.state})`);
  const api = await s.api();
  const text = await api.downloadText(status.run.url);
  if (opts.output === '-') return void s.deps.stdout.write(text.endsWith('\n') ? text : text + '\n');
  const file = resolve(s.deps.cwd, opts.output ?? resultFileName(new Date(s.deps.now())));
  await writeFile(file, text);
  s.out.done({ file, bytes: Buffer.byteLength(text) }, `Saved ${file}`);
}
