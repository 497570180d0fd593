// The uploads list of a project (useEntityList) and the uploading of files into it, each group with its progress and
// cancel, followed through its analysis.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Project, CallResponse, Upload } from '../contract';
import { MESSAGES } from '../messages';
import { toApiError } from '../loader';
import { isAbortError } from '../timers';
import { convertTables, runUpload, TableTextError, type ReadableSource, type UploadProgress } from '../upload';
import { type ListActions } from './actions';
import { useApi, useNotify } from './context';
import type { Loaded } from './useLoad';
import { REFRESH_MS, uploadSettled } from '../refresh';
import { callKey } from '../query';
import { nextOf, pageParams, pageQuery, pagingOf, useChanged, useEntityList } from './entityList';
import type { EntityListSpec, Next, PageAsked, PageParams } from './entityList';

/** Why an upload failed analysis: the first failed file's own sentence. */
function uploadFailure(r: Upload): string {
  const item = r.upload.list.find((i) => i.state === 'Failed' || i.meta?.proc === 2);
  return item?.meta?.error ?? item?.error ?? 'its files could not be read';
}

export interface UploadOptions {
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
  /**
   * Whether the hook follows the new upload through its analysis (the default): each file's notice says analysis
   * has begun and a second notice tells how it ended. `false` for a screen that follows the upload itself (the fit
   * form): each file gets SPEC's plain success notice and no second notice comes.
   */
  follow?: boolean;
}

/** How an upload ended: the new upload's id, or the message shown (MESSAGES.uploadCancelled when it was cancelled). */
export type UploadOutcome = { upload: string; error?: undefined } | { upload?: undefined; error: string };

/** Files being sent as one group: the progress of each and the cancel of the group. */
export interface UploadBatch {
  id: number;
  progress: UploadProgress[];
  cancel(): void;
}

const uploadsQuery = ({ projectId, ...page }: { projectId: string } & PageParams) => ({
  active: 1 as const,
  bucket: projectId,
  ...pageQuery(page),
});
const UPLOADS: EntityListSpec<
  { clientId: string; projectId: string } & PageParams,
  { project?: Project; uploads: Upload[] } & Next,
  CallResponse<'rendList'>
> = {
  noun: 'Upload',
  restorable: true,
  key: (params) => callKey('rendList', uploadsQuery(params)),
  load: (api, params, signal) => api.calls.rendList(uploadsQuery(params), { signal }),
  select: (res) => ({ project: res.bucket, uploads: res.rend.list, ...nextOf(res.rend) }),
  // Uploads being analysed move to Ready or Failed on the server: the list is read again until they settle.
  options: { failure: MESSAGES.fetchUploads, pollMs: REFRESH_MS.uploads, until: (d) => d.uploads.every(uploadSettled) },
  rename: (api, upload, name) => api.calls.rendRename({ rend: upload, name }),
  remove: (api, upload, active) => api.calls.rendRemove({ rend: upload, active }),
};

export function useUploads(
  clientId: string,
  projectId: string,
  page?: PageAsked,
): Loaded<{ project?: Project; uploads: Upload[] } & Next> &
  ListActions & {
    /**
     * Uploads files as one group: each file is notified, a failure and a cancel too (a sign-in failure is the door's);
     * answers the new upload's id or the message shown.
     */
    upload(files: ReadableSource[], opts?: UploadOptions): Promise<UploadOutcome>;
    /** True while an upload runs. */
    uploading: boolean;
    /** The groups being sent, oldest first, each with its progress per file and its cancel. */
    batches: UploadBatch[];
  } {
  const api = useApi();
  const notify = useNotify();
  const [batches, setBatches] = useState<UploadBatch[]>([]);
  const nextBatch = useRef(0);
  const loaded = useEntityList(UPLOADS, { clientId, projectId, ...pageParams(page) }, pagingOf(page));
  const reload = useChanged(UPLOADS.noun);

  // Uploads just made are followed until their analysis ends: their row shows the progress and the state, and one
  // notice at the end says how it ended (Ready, or the failure), rather than one notice per step.
  const [following, setFollowing] = useState<Array<{ stamp: string; files: string }>>([]);
  const list = loaded.data?.uploads;
  useEffect(() => {
    if (following.length === 0 || !list) return;
    const settled = following.filter(({ stamp, files }) => {
      const r = list.find((x) => x.stamp === stamp);
      if (!r) return true; // removed meanwhile: nothing to report
      if (r.flight === 'Ready') notify(MESSAGES.uploadReady(files), 'uploadSuccess');
      else if (r.flight === 'Failed') notify(MESSAGES.uploadAnalysisFailed(r.name, uploadFailure(r)), 'error');
      else return false;
      return true;
    });
    if (settled.length) setFollowing((all) => all.filter((x) => !settled.includes(x)));
  }, [following, list, notify]);

  const upload = useCallback(
    async (dropped: ReadableSource[], opts: UploadOptions = {}): Promise<UploadOutcome> => {
      const follow = opts.follow !== false;
      // A CSV or TSV becomes its JSON table here, at the client, before anything is sent; each one is named.
      let files;
      try {
        const converted = await convertTables(dropped);
        for (const note of converted.notes) notify(note);
        files = converted.files;
      } catch (e) {
        if (!(e instanceof TableTextError)) throw e;
        notify(e.message, 'error');
        return { error: e.message };
      }
      const id = ++nextBatch.current;
      const controller = new AbortController();
      const stop = () => controller.abort();
      if (opts.signal?.aborted) stop();
      opts.signal?.addEventListener('abort', stop);
      const initial = files.map((f, index) => ({ file: f.name, index, loaded: 0, total: f.size }));
      setBatches((all) => [...all, { id, progress: initial, cancel: stop }]);
      const onProgress = (p: UploadProgress) => {
        setBatches((all) => all.map((b) => (b.id === id ? { ...b, progress: b.progress.map((o) => (o.index === p.index ? p : o)) } : b)));
        opts.onProgress?.(p);
      };
      try {
        const result = await runUpload(api, { project: projectId, files, onProgress, signal: controller.signal });
        // Not followed (the caller reports what comes next): SPEC's notice for each file now.
        if (!follow) for (const f of result.files) notify(MESSAGES.uploadSucceeded(f.name), 'uploadSuccess');
        await reload();
        // Followed from the list that holds it (before that reload, it would look removed).
        if (follow) setFollowing((all) => [...all, { stamp: result.upload, files: result.files.map((f) => f.name).join(', ') }]);
        return { upload: result.upload };
      } catch (e) {
        // Core's pipeline removes the half-made group before the cancel comes back here.
        if (isAbortError(e) || controller.signal.aborted) {
          notify(MESSAGES.uploadCancelled);
          await reload();
          return { error: MESSAGES.uploadCancelled };
        }
        // SPEC's message, then what went wrong and what to do (a half-made upload left to remove, the server's reason).
        const error = toApiError(e, MESSAGES.uploadFiles);
        if (!error.isAuth) notify(error.detail, 'error');
        await reload();
        return { error: error.detail };
      } finally {
        opts.signal?.removeEventListener('abort', stop);
        setBatches((all) => all.filter((b) => b.id !== id));
      }
    },
    [api, projectId, notify, reload],
  );
  return { ...loaded, upload, uploading: batches.length > 0, batches };
}
