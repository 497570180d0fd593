// One hook per list screen: loads the list and offers create, rename and remove.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Bucket, Client, ClientApiKey, IntegrationKey, Model, PermissionEntry, Rend, Run, RunFunction } from '../contract';
import { MESSAGES } from '../messages';
import { canCreateApiKey, checkIntegration, checkTitle, firstError, type IntegrationInput } from '../rules';
import { toApiError } from '../loader';
import { isAbortError } from '../timers';
import { runUpload, type UploadProgress, type UploadSource } from '../upload';
import { doneMessages, useAct, useRemoveMany, type ActOptions, type ListActions } from './actions';
import { useApi, useNotify } from './context';
import { useLoad, type Loaded } from './useLoad';
import { REFRESH_MS, runSettled, uploadSettled } from '../refresh';

/**
 * Rename and remove for one kind of item, with their notices: `remove(id, active)` is the API's remove call; with
 * `restorable`, a removal's notice offers Undo (the same call with active=1), which keys do not (their tokens are revoked).
 */
function useEdits(
  noun: string,
  calls: { rename(id: string, name: string): Promise<unknown>; remove(id: string, active: 0 | 1): Promise<unknown> },
  reload: () => Promise<void>,
  restorable: boolean,
): ListActions {
  const act = useAct();
  const done = useMemo(() => doneMessages(noun), [noun]);
  const { rename: renameCall, remove: removeCall } = calls;
  const rename = useCallback(
    (id: string, name: string, opts?: ActOptions) =>
      act(checkTitle(name, 'rename'), () => renameCall(id, name.trim()), reload, { message: done.renamed(name.trim()) }, opts),
    [act, renameCall, reload, done],
  );
  const remove = useCallback(
    (id: string, opts?: ActOptions) =>
      act(
        null,
        () => removeCall(id, 0),
        reload,
        {
          message: done.removed,
          undo: restorable ? { run: () => removeCall(id, 1), done: done.restored, failure: done.restoreFailed } : undefined,
        },
        opts,
      ),
    [act, removeCall, reload, done, restorable],
  );
  const removeMany = useRemoveMany(noun, removeCall, reload);
  return restorable ? { rename, remove, removeMany } : { rename, remove };
}

const byStamp = (list: readonly Client[], stamp: string) => list.find((c) => c.stamp === stamp);

/** The user's client accounts (SPEC: access is by client membership). */
export function usePermissions(): Loaded<PermissionEntry[]> {
  const api = useApi();
  return useLoad((signal) => api.calls.permissions(undefined, { signal }), [api], { failure: MESSAGES.fetchPermissions });
}

/** One client from the permission list (its name, plan and choice). */
export function useClient(clientId: string): { client: Client | undefined; loading: boolean; error: Loaded<unknown>['error'] } {
  const { data, loading, error } = usePermissions();
  const client = useMemo(() => data?.find((p) => p.client.stamp === clientId)?.client, [data, clientId]);
  return { client, loading, error };
}

export function useApiKeys(clientId: string): Loaded<{ client: Client | undefined; keys: ClientApiKey[] }> &
  ListActions & {
    create(name: string, opts?: ActOptions): Promise<string | null>;
    /** Whether Create is offered: the list has loaded and holds no key (canCreateApiKey). */
    canCreate: boolean;
  } {
  const api = useApi();
  const act = useAct();
  const loaded = useLoad(
    async (signal) => {
      const res = await api.calls.apikeyList({ client: clientId }, { signal });
      return { client: byStamp(res.client.list, clientId), keys: res.apikey.list.filter((k) => k.active === 1) };
    },
    [api, clientId],
  );
  const { reload } = loaded;
  const create = useCallback(
    (name: string, opts?: ActOptions) =>
      act(
        checkTitle(name, 'create'),
        () => api.calls.apikeyCreate({ client: clientId, name: name.trim() }),
        reload,
        { message: doneMessages('API key').created(name.trim()) },
        opts,
      ),
    [act, api, clientId, reload],
  );
  const calls = useMemo(
    () => ({
      rename: (apikey: string, name: string) => api.calls.apikeyRename({ apikey, name }),
      remove: (apikey: string, active: 0 | 1) => api.calls.apikeyRemove({ apikey, active }),
    }),
    [api],
  );
  return { ...loaded, canCreate: canCreateApiKey(loaded.data?.keys), create, ...useEdits('API key', calls, reload, false) };
}

export function useIntegrations(clientId: string): Loaded<{ client: Client | undefined; keys: IntegrationKey[] }> &
  ListActions & {
    /** Checks (checkIntegration), creates, notifies "Integration {name} created."; null on success, else the message. */
    create(input: IntegrationInput, opts?: ActOptions): Promise<string | null>;
  } {
  const api = useApi();
  const act = useAct();
  const loaded = useLoad(
    async (signal) => {
      const res = await api.calls.integrationList({ client: clientId }, { signal });
      return { client: byStamp(res.client.list, clientId), keys: res.apikey.list.filter((k) => k.active === 1) };
    },
    [api, clientId],
  );
  const { reload } = loaded;
  const create = useCallback(
    (input: IntegrationInput, opts?: ActOptions) =>
      act(
        firstError(checkIntegration(input)),
        () =>
          api.calls.integrationCreate({
            client: clientId,
            name: input.name.trim(),
            service: input.service as 'OpenAI',
            token: input.token,
          }),
        reload,
        { message: `Integration ${input.name.trim()} created.` },
        opts,
      ),
    [act, api, clientId, reload],
  );
  const calls = useMemo(
    () => ({
      rename: (apikey: string, name: string) => api.calls.integrationRename({ apikey, name }),
      remove: (apikey: string, active: 0 | 1) => api.calls.integrationRemove({ apikey, active }),
    }),
    [api],
  );
  return { ...loaded, create, ...useEdits('Integration', calls, reload, false) };
}

export function useProjects(clientId: string): Loaded<{ client: Client | undefined; projects: Bucket[] }> &
  ListActions & {
    create(name: string, opts?: ActOptions): Promise<string | null>;
    /** The stamp of the project made by the last successful create (it is in data after the reload). */
    created: string | null;
  } {
  const api = useApi();
  const act = useAct();
  const [created, setCreated] = useState<string | null>(null);
  const loaded = useLoad(
    async (signal) => {
      const res = await api.calls.bucketList({ active: 1, client: clientId }, { signal });
      return { client: byStamp(res.client.list, clientId), projects: res.bucket.list };
    },
    [api, clientId],
  );
  const { reload } = loaded;
  const create = useCallback(
    (name: string, opts?: ActOptions) =>
      act(
        checkTitle(name, 'create'),
        async () => {
          const res = await api.calls.bucketCreate({ client: clientId, name: name.trim() });
          setCreated(res.bucket.stamp);
        },
        reload,
        { message: doneMessages('Project').created(name.trim()) },
        opts,
      ),
    [act, api, clientId, reload],
  );
  const calls = useMemo(
    () => ({
      rename: (bucket: string, name: string) => api.calls.bucketRename({ bucket, name }),
      remove: (bucket: string, active: 0 | 1) => api.calls.bucketRemove({ bucket, active }),
    }),
    [api],
  );
  return { ...loaded, create, ...useEdits('Project', calls, reload, true), created };
}

export function useModels(
  clientId: string,
  bucketId: string,
): Loaded<{ client: Client; project: Bucket; general: Model[]; own: Model[] }> & ListActions {
  const api = useApi();
  const loaded = useLoad(
    async (signal) => {
      const [own, general] = await Promise.all([
        api.calls.clientModelList({ active: 1, bucket: bucketId }, { signal }),
        api.calls.generalModelList({ active: 1 }, { signal }),
      ]);
      return { client: own.client, project: own.bucket, general: general.model.list, own: own.model.list };
    },
    [api, clientId, bucketId],
  );
  const { reload } = loaded;
  const calls = useMemo(
    () => ({
      rename: (model: string, name: string) => api.calls.modelRename({ model, name }),
      remove: (model: string, active: 0 | 1) => api.calls.modelRemove({ model, active }),
    }),
    [api],
  );
  return { ...loaded, ...useEdits('Model', calls, reload, true) };
}

/** The requests list's filters: one state and one function, or all ('' or undefined). */
export interface RunFilters {
  state?: string;
  function?: RunFunction | '';
}

export function useRuns(
  clientId: string,
  bucketId: string,
): Loaded<{ client: Client; project: Bucket; runs: Run[] }> &
  ListActions & {
    filters: RunFilters;
    setFilters(f: RunFilters): void;
  } {
  const api = useApi();
  const [filters, setFilters] = useState<RunFilters>({});
  const loaded = useLoad(
    async (signal) => {
      const res = await api.calls.runList(
        {
          active: 1,
          bucket: bucketId,
          ...(filters.state ? { state: filters.state } : {}),
          ...(filters.function ? { function: filters.function } : {}),
        },
        { signal },
      );
      return { client: res.client, project: res.bucket, runs: res.run.list };
    },
    [api, clientId, bucketId, filters.state, filters.function],
    // Requests move on the server: the list is read again until every one has settled.
    { failure: MESSAGES.loadRequests, pollMs: REFRESH_MS.runs, until: (d) => d.runs.every(runSettled) },
  );
  const { reload } = loaded;
  const calls = useMemo(
    () => ({
      rename: (run: string, name: string) => api.calls.runRename({ run, name }),
      remove: (run: string, active: 0 | 1) => api.calls.runRemove({ run, active }),
    }),
    [api],
  );
  return { ...loaded, ...useEdits('Request', calls, reload, true), filters, setFilters };
}

/** How often uploads being analysed after an upload here are checked (analysis takes seconds). */
export const UPLOAD_FOLLOW_MS = 3_000;

/** Why an upload failed analysis: the first failed file's own sentence. */
function uploadFailure(r: Rend): string {
  const item = r.upload.list.find((i) => i.state === 'Failed' || i.meta?.proc === 2);
  return item?.meta?.error ?? item?.error ?? 'its files could not be read';
}

export interface UploadOptions {
  onProgress?: (p: UploadProgress) => void;
  signal?: AbortSignal;
}

export function useUploads(
  clientId: string,
  bucketId: string,
): Loaded<{ project?: Bucket; uploads: Rend[] }> &
  ListActions & {
    /** Uploads files as one group; null on success (each file notified), else the message shown. */
    upload(files: UploadSource[], opts?: UploadOptions): Promise<string | null>;
    /** True while an upload runs. */
    uploading: boolean;
  } {
  const api = useApi();
  const notify = useNotify();
  const [uploading, setUploading] = useState(false);
  const running = useRef(0);
  const loaded = useLoad(
    async (signal) => {
      const res = await api.calls.rendList({ active: 1, bucket: bucketId }, { signal });
      return { project: res.bucket, uploads: res.rend.list };
    },
    [api, clientId, bucketId],
    // Uploads being analysed move to Ready or Failed on the server: the list is read again until they settle.
    { failure: MESSAGES.fetchUploads, pollMs: REFRESH_MS.uploads, until: (d) => d.uploads.every(uploadSettled) },
  );
  const { reload } = loaded;
  const calls = useMemo(
    () => ({
      rename: (rend: string, name: string) => api.calls.rendRename({ rend, name }),
      remove: (rend: string, active: 0 | 1) => api.calls.rendRemove({ rend, active }),
    }),
    [api],
  );
  const { rename, remove, removeMany } = useEdits('Upload', calls, reload, true);

  // Uploads just made are followed until their analysis ends, which the second notice reports (Ready, or the failure).
  const [following, setFollowing] = useState<string[]>([]);
  const list = loaded.data?.uploads;
  useEffect(() => {
    if (following.length === 0 || !list) return;
    const settled = following.filter((stamp) => {
      const r = list.find((x) => x.stamp === stamp);
      if (!r) return true; // removed meanwhile: nothing to report
      if (r.flight === 'Ready') notify(MESSAGES.uploadReady(r.name), 'success');
      else if (r.flight === 'Failed') notify(MESSAGES.uploadAnalysisFailed(r.name, uploadFailure(r)), 'error');
      else return false;
      return true;
    });
    if (settled.length) setFollowing((all) => all.filter((x) => !settled.includes(x)));
  }, [following, list, notify]);
  useEffect(() => {
    if (following.length === 0) return;
    const t = setInterval(() => void reload(), UPLOAD_FOLLOW_MS);
    return () => clearInterval(t);
  }, [following.length, reload]);

  const upload = useCallback(
    async (files: UploadSource[], opts: UploadOptions = {}): Promise<string | null> => {
      setUploading(++running.current > 0);
      try {
        const result = await runUpload(api, { bucket: bucketId, files, onProgress: opts.onProgress, signal: opts.signal });
        for (const f of result.files) notify(MESSAGES.uploadAnalysing(f.name), 'uploadSuccess');
        await reload();
        // Followed from the list that holds it (before that reload, it would look removed).
        setFollowing((all) => [...all, result.rend]);
        return null;
      } catch (e) {
        if (isAbortError(e) || opts.signal?.aborted) {
          await reload();
          return MESSAGES.uploadCancelled;
        }
        const error = toApiError(e, MESSAGES.uploadFiles);
        if (!error.isAuth) notify(error.display, 'error');
        await reload();
        return error.display;
      } finally {
        setUploading(--running.current > 0);
      }
    },
    [api, bucketId, notify, reload],
  );
  return { ...loaded, rename, remove, removeMany, upload, uploading };
}
