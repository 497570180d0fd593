// `portal uploads push <files...>`: the files streamed from disk, hashed while read, PUT to their pre-signed URLs, with a
// progress bar per file; --wait follows the upload's analysis, --resume continues one that was cut off.
import { MESSAGES, PLANS, PLAN_LIMITS, checkDropFiles, isTableText, uploadError, type Upload, type UploadSource } from '@portal/core';
import type { Session } from '../context';
import { CliError, EXIT } from '../errors';
import { progressReporter } from '../progress';
import { waitFlag, type VerbOptions } from '../verb';
import { findUpload, localFiles } from './shared';

export interface PushOptions {
  files: string[];
  wait?: boolean;
  resume?: string | true;
}

export const options: VerbOptions = {
  usage: 'push <files...>',
  summary: 'Upload files as one upload (named after the first file), with a progress bar per file',
  flags: [
    waitFlag('the upload until it is Ready or Failed'),
    {
      flags: '--resume [id]',
      description: 'continue an upload that was cut off (the newest unfinished one holding these files, or this id)',
    },
  ],
  examples: [
    'portal uploads push data.json',
    'portal uploads push flowers.csv --wait   # a .csv or .tsv is uploaded as its JSON table',
    'portal uploads push a.json b.npy --project <id> --wait --json',
    'portal uploads push a.json b.npy --resume   # after a push was cut off: sends only what did not arrive',
  ],
};

export async function run(opts: PushOptions, s: Session): Promise<void> {
  const { files } = opts;
  const local = localFiles(s, files);
  // Count and extensions do not depend on the plan: refuse those before any call.
  const early = checkDropFiles(local, 'uploads', 'Enterprise');
  if (early) throw new CliError(early);
  // The checksum must be known before the upload URL is asked for: hashing starts first and runs while core's
  // client loads and the upload group is created. node:http(s) and node:crypto load only for a push.
  const [{ diskPut, isDiskSource }, { sha256File }] = await Promise.all([import('../put'), import('@portal/core/node')]);
  const hashes = new Map(local.filter((f) => !isTableText(f.name)).map((f) => [f.path, sha256File(f.path)]));
  for (const h of hashes.values()) h.catch(() => {});
  const [flow, api] = await Promise.all([import('./flow'), s.api()]);
  const { runUpload, defaultPut, fileSource, ApiError, isApiError, timeoutText, unreachableText, sha256Stream } = flow;
  const sources: UploadSource[] = local.map((f) => ({ ...fileSource(f.path), path: f.path }));
  // A CSV or TSV is turned into its JSON table here, before upload, and the notice says so (its parser loads only then).
  const converted = local.some((f) => isTableText(f.name))
    ? await import('./tables').then(({ convertTables, TableTextError }) =>
        convertTables(sources).catch((e: unknown) => {
          throw e instanceof TableTextError ? new CliError(e.message) : e;
        }),
      )
    : { files: sources, notes: [] };
  for (const note of converted.notes) s.out.notice(note);
  const list = converted.files;
  const sent = list.map((f) => ({ name: f.name, size: f.size }));
  const bar = progressReporter(s.deps.stderr, s.deps.now);
  const put = diskPut(api, defaultPut(api), {
    http: (status, message) => new ApiError(status, `http_${status}`, message, MESSAGES.uploadFiles),
    network: (url, cause, timedOut) =>
      timedOut
        ? new ApiError(0, 'timeout', timeoutText(url, api.timeoutMs), MESSAGES.uploadFiles)
        : new ApiError(0, 'network', unreachableText(url, cause), MESSAGES.uploadFiles),
  });
  // Ctrl+C cancels cleanly: the pipeline removes the half-made upload instead of leaving it behind.
  const abort = new AbortController();
  const release = s.deps.onInterrupt?.(() => abort.abort());
  /** The unfinished upload to continue: this id, or the newest Pending one whose files are all among these. */
  const unfinished = async (project: string): Promise<Upload> => {
    const { rend: uploads } = await api.calls.rendList({ active: 1, bucket: project });
    const names = new Set(sent.map((f) => f.name));
    const found = uploads.list.find((r) =>
      opts.resume === true ? r.flight === 'Pending' && r.upload.list.every((i) => names.has(i.file.name)) : r.stamp === opts.resume,
    );
    if (!found)
      throw new CliError(
        opts.resume === true
          ? 'No unfinished upload of these files in this project to continue: push them without --resume'
          : `No upload ${opts.resume} in this project (see portal uploads list)`,
      );
    if (found.flight !== 'Pending')
      throw new CliError(`Upload ${found.name} (${found.stamp}) is ${found.flight}: there is nothing to continue`);
    return found;
  };
  const push = async (project: string) =>
    runUpload(api, {
      resume: opts.resume ? await unfinished(project) : undefined,
      signal: abort.signal,
      project,
      files: list,
      hash: (f) => (isDiskSource(f) ? hashes.get(f.path)! : sha256Stream(f)),
      put,
      onProgress: bar.update,
      onFileDone: (f) => {
        bar.fileDone();
        s.out.notice(MESSAGES.uploadSucceeded(f.name));
      },
    });
  // A project known by its id (--project, or the one opened last) needs no look-up: the server checks access and
  // the plan's size limit when the file is registered. Otherwise, or when that id is unknown (a name given to
  // --project, a project removed since), the project is found through the account first.
  // (The project opened last belongs to the account opened last: --client alone asks for another one.)
  // With several files of which one may be over the plan's limit, the plan is checked first: the server would
  // refuse that file only after the ones before it were sent.
  const smallestLimit = Math.min(...PLANS.map((p) => PLAN_LIMITS[p].maxFileSize));
  const serverChecksFirst = sent.length === 1 || sent.every((f) => f.size <= smallestLimit);
  const known = !serverChecksFirst ? undefined : (s.opts.project ?? (s.opts.client ? undefined : (await s.host()).get('project')));
  let projectStamp = known;
  const result = await (async () => {
    if (known) {
      try {
        return await push(known);
      } catch (e) {
        if (!(isApiError(e) && e.status === 404 && (e.call === 'rendCreate' || e.call === 'rendList'))) throw e;
      }
    }
    const { client, project } = await s.project();
    const problem = checkDropFiles(sent, 'uploads', client.plan);
    if (problem) throw new CliError(problem);
    projectStamp = project.stamp;
    return push(project.stamp);
  })()
    .catch((e) => {
      if (abort.signal.aborted) throw new CliError(`\n${MESSAGES.uploadCancelled}`, EXIT.interrupted);
      // The server refuses a file over the plan's limit: SPEC's message, as when the plan is checked here.
      if (isApiError(e) && e.status === 413) throw new CliError(MESSAGES.fileTooLarge);
      throw e;
    })
    .finally(() => release?.());
  let upload: Upload | undefined = result.group ?? (await findUpload(s, projectStamp!, result.upload));
  if (opts.wait) {
    upload = await s.follow(
      () => findUpload(s, projectStamp!, result.upload),
      (r) => r?.flight ?? 'gone',
      (r) => !r || r.flight === 'Ready' || r.flight === 'Failed',
      `Upload ${result.upload}`,
    );
  }
  if (!upload) throw new CliError(`Upload ${result.upload} is no longer in the project`);
  s.out.done(upload, `Upload ${upload.name} (${upload.stamp}) is ${upload.flight}`);
  if (upload.flight === 'Failed') {
    const why = uploadError(upload);
    if (why) s.out.notice(why);
    s.exit(1);
  }
}
