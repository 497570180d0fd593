// `portal uploads preview <id>`: what an upload's file holds (first rows, each column's type, range and histogram).
import type { Session } from '../context';
import { CliError } from '../errors';
import type { VerbOptions } from '../verb';
import { findUpload } from './shared';

export interface PreviewOptions {
  id: string;
  file?: string;
}

export const options: VerbOptions = {
  usage: 'preview <id>',
  summary: "What an upload's file holds: its first rows and each column's type, range, mean, missing values and histogram",
  flags: [{ flags: '--file <name>', description: 'which file of the upload (its name or id; the first file when not given)' }],
  examples: ['portal uploads preview <id>', 'portal uploads preview <id> --file b.json --json'],
};

export async function run(opts: PreviewOptions, s: Session): Promise<void> {
  const { id } = opts;
  const api = await s.api();
  const file = await previewFile(s, id, opts.file);
  const { preview } = await api.calls.uploadPreview({ upload: file });
  if (s.out.json) return s.out.printJson(preview);
  const { renderPreview } = await import('../previewText');
  // A terminal's own width; piped output keeps to 80 columns.
  s.out.stdout.write(renderPreview(preview, s.out.tty && s.out.stdout.columns ? Math.max(40, s.out.stdout.columns) : 80));
}

/** The file an upload id (and --file) names; a file's own id is taken as it is. */
async function previewFile(s: Session, id: string, file: string | undefined): Promise<string> {
  const { project } = await s.project();
  const upload = await findUpload(s, project.stamp, id);
  if (!upload) {
    if (file) throw new CliError(`No upload ${id} in this project (see portal uploads list)`);
    return id;
  }
  const items = upload.upload.list;
  const item = file ? items.find((i) => i.stamp === file || i.file.name === file || i.name === file) : items[0];
  if (!item)
    throw new CliError(
      file
        ? `Upload ${upload.name} has no file ${file}; its files: ${items.map((i) => i.file.name).join(', ')}`
        : `Upload ${upload.name} has no files`,
    );
  return item.stamp;
}
