// The upload flow of SPEC section 4: create group → register each file → PUT bytes → finish item → finish group.
import { ApiError, type ApiClient } from '../client';
import type { Upload, UploadItem } from '../contract';
import { TITLE_MAX } from '../limits';
import { MESSAGES } from '../messages';
import { abortReason, isAbortError, sleep, systemTimers, type Timers } from '../timers';
import { sha256Stream } from './hash';
import { defaultPut } from './put';
import type { PutFn, UploadProgress, UploadSource } from './types';

/** The group's name: the first file's name, plus " (+N more)" for extra files, kept within the title limit. */
export function uploadGroupName(files: ReadonlyArray<{ name: string }>): string {
  const suffix = files.length > 1 ? ` (+${files.length - 1} more)` : '';
  let first = (files[0]?.name ?? '').trim() || 'Upload';
  if (first.length + suffix.length > TITLE_MAX) first = `${first.slice(0, TITLE_MAX - suffix.length - 1).trimEnd()}…`;
  return `${first}${suffix}`;
}

export interface RunUploadOptions {
  /** The project's stamp. */
  project: string;
  files: readonly UploadSource[];
  /** Hex SHA-256 of a source; defaults to the source's own hash or core's streaming one. */
  hash?: (source: UploadSource, signal?: AbortSignal) => Promise<string>;
  onProgress?: (p: UploadProgress) => void;
  /** Called once a file's bytes are stored and its item finished. */
  onFileDone?: (file: UploadedFile) => void;
  signal?: AbortSignal;
  /** Tries per PUT (default 3). */
  retries?: number;
  /** Delay before the second try; doubles for each further one (default 500 ms). */
  backoffMs?: number;
  put?: PutFn;
  timers?: Timers;
  /**
   * Continue this group instead of creating one (an upload cut off before it finished): a file whose bytes it already
   * holds (same name, size and checksum) is skipped, one registered but not finished is sent again under the same
   * item, and the group is left in place if this try fails too, to be continued again.
   */
  resume?: Pick<Upload, 'stamp'> & { upload: { list: readonly UploadItem[] } };
}

export interface UploadedFile {
  name: string;
  size: number;
  checksum: string;
  /** The upload item's stamp. */
  upload: string;
}

export interface UploadResult {
  /** The upload's (the group's) stamp. */
  upload: string;
  files: UploadedFile[];
  /** The group as the server answered its finish call, so callers need not read it back. */
  group?: Upload;
}

/**
 * Uploads files as one group. Rejects with an ApiError whose display is 'Failed to upload files.'
 * (or the abort reason when cancelled); the half-made group is then removed so it does not linger.
 */
export async function runUpload(api: ApiClient, opts: RunUploadOptions): Promise<UploadResult> {
  const { signal } = opts;
  if (opts.files.length === 0) throw new ApiError(0, 'invalid_input', 'No files chosen', MESSAGES.uploadFiles);
  const hash = opts.hash ?? sha256Stream;
  const put = opts.put ?? defaultPut(api);
  const tries = Math.max(1, opts.retries ?? 3);
  const backoff = opts.backoffMs ?? 500;
  const timers = opts.timers ?? systemTimers;

  if (signal?.aborted) throw abortReason(signal);
  const resumed = opts.resume;
  // Made without the signal: a cancel while this call is on its way would lose its answer, and with it the group the
  // server made. A cancel meanwhile is seen at the top of the steps below, which then remove the group.
  const upload = resumed ?? (await api.calls.rendCreate({ bucket: opts.project, name: uploadGroupName(opts.files) })).rend;
  // An item past Pending (Preparing, Finished) has its bytes; a Pending one was registered but not finished.
  const held = (source: UploadSource, checksum: string, arrived: boolean) =>
    resumed?.upload.list.find(
      (i) =>
        i.state !== 'Failed' &&
        (i.state !== 'Pending') === arrived &&
        i.file.name === source.name &&
        i.file.size === source.size &&
        i.file.checksum === checksum,
    );
  const files: UploadedFile[] = [];
  let group: Upload | undefined;
  try {
    if (signal?.aborted) throw abortReason(signal);
    for (const [index, source] of opts.files.entries()) {
      const report = (loaded: number) => opts.onProgress?.({ file: source.name, index, loaded, total: source.size });
      report(0);
      const checksum = await hash(source, signal);
      const finished = held(source, checksum, true);
      if (finished) {
        report(source.size);
        const done = { name: source.name, size: source.size, checksum, upload: finished.stamp };
        files.push(done);
        opts.onFileDone?.(done);
        continue;
      }
      // Registering a file the group holds as Pending answers that same item with a fresh URL.
      const again = !!held(source, checksum, false);
      const { upload: item } = await api.calls.uploadRegister(
        { rend: upload.stamp, name: source.name, file: { checksum, name: source.name, size: source.size } },
        { signal },
      );
      for (let attempt = 1; ; attempt++) {
        try {
          await put(item.url, source, { onProgress: report, signal });
          break;
        } catch (e) {
          // The storage already holds the bytes: an earlier try arrived but its answer was lost.
          // (Or, when continuing, the bytes of the cut-off try arrived before it was cut off.)
          if ((attempt > 1 || again) && e instanceof ApiError && e.status === 409) break;
          if (isAbortError(e) || signal?.aborted || attempt >= tries || !retryable(e)) throw e;
          report(0);
          await sleep(backoff * 2 ** (attempt - 1), signal, timers);
        }
      }
      await api.calls.uploadFinish({ upload: item.stamp }, { signal });
      const done = { name: source.name, size: source.size, checksum, upload: item.stamp };
      files.push(done);
      opts.onFileDone?.(done);
    }
    group = (await api.calls.rendFinish({ rend: upload.stamp }, { signal })).rend;
  } catch (e) {
    // Best effort: a group whose files did not all arrive would only confuse the uploads list (one being continued
    // stays, to be continued again).
    // When even that fails, the failure says so: the user removes the half-made upload from the list.
    let leftover: string | null = null;
    if (!resumed)
      await api.calls.rendRemove({ rend: upload.stamp, active: 0 }).catch((x: unknown) => {
        leftover = `The unfinished upload ${upload.stamp} could not be removed (${(x as Error)?.message ?? x}): remove it from the uploads list.`;
      });
    if (isAbortError(e) || signal?.aborted) throw e;
    const said = (m: string | null) => [m, leftover].filter(Boolean).join(' ') || null;
    if (e instanceof ApiError)
      throw e.display === MESSAGES.uploadFiles && !leftover
        ? e
        : new ApiError(e.status, e.code, said(e.serverMessage), MESSAGES.uploadFiles, e.call);
    throw new ApiError(0, 'upload_failed', said((e as Error)?.message ?? null), MESSAGES.uploadFiles);
  }
  return { upload: upload.stamp, files, group };
}

// A refusal the server will repeat (wrong size or checksum, too large, not allowed) is not worth retrying.
function retryable(e: unknown): boolean {
  if (!(e instanceof ApiError)) return true;
  return e.status === 0 || e.status === 408 || e.status === 429 || e.status >= 500;
}
