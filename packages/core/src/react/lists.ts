// One hook per list screen: loads the list and offers create, rename and remove.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { Bucket, Client, ClientApiKey, IntegrationKey, Model, PermissionEntry, Rend, Run, RunFunction } from '../contract';
import { MESSAGES } from '../messages';
import { canCreateApiKey, checkIntegration, checkTitle, firstError, type IntegrationInput } from '../rules';
import { toApiError } from '../loader';
import { isAbortError } from '../timers';
import { runUpload, type UploadProgress, type UploadSource } from '../upload';
import { useAct, type ListActions } from './actions';
import { useApi, useNotify } from './context';
import { useLoad, type Loaded } from './useLoad';
import { REFRESH_MS, runSettled, uploadSettled } from '../refresh';

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
    create(name: string): Promise<string | null>;
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
    (name: string) => act(checkTitle(name, 'create'), () => api.calls.apikeyCreate({ client: clientId, name: name.trim() }), reload),
    [act, api, clientId, reload],
  );
  const rename = useCallback(
    (id: string, name: string) => act(checkTitle(name, 'rename'), () => api.calls.apikeyRename({ apikey: id, name: name.trim() }), reload),
    [act, api, reload],
  );
  const remove = useCallback(
    (id: string) => act(null, () => api.calls.apikeyRemove({ apikey: id, active: 0 }), reload),
    [act, api, reload],
  );
  return { ...loaded, canCreate: canCreateApiKey(loaded.data?.keys), create, rename, remove };
}

export function useIntegrations(clientId: string): Loaded<{ client: Client | undefined; keys: IntegrationKey[] }> &
  ListActions & {
    /** Checks (checkIntegration), creates, notifies "Integration {name} created."; null on success, else the message. */
    create(input: IntegrationInput): Promise<string | null>;
  } {
  const api = useApi();
  const act = useAct();
  const notify = useNotify();
  const loaded = useLoad(
    async (signal) => {
      const res = await api.calls.integrationList({ client: clientId }, { signal });
      return { client: byStamp(res.client.list, clientId), keys: res.apikey.list.filter((k) => k.active === 1) };
    },
    [api, clientId],
  );
  const { reload } = loaded;
  const create = useCallback(
    async (input: IntegrationInput) => {
      const failed = await act(
        firstError(checkIntegration(input)),
        () =>
          api.calls.integrationCreate({
            client: clientId,
            name: input.name.trim(),
            service: input.service as 'OpenAI',
            token: input.token,
          }),
        reload,
      );
      if (!failed) notify(`Integration ${input.name.trim()} created.`, 'success');
      return failed;
    },
    [act, api, clientId, notify, reload],
  );
  const rename = useCallback(
    (id: string, name: string) =>
      act(checkTitle(name, 'rename'), () => api.calls.integrationRename({ apikey: id, name: name.trim() }), reload),
    [act, api, reload],
  );
  const remove = useCallback(
    (id: string) => act(null, () => api.calls.integrationRemove({ apikey: id, active: 0 }), reload),
    [act, api, reload],
  );
  return { ...loaded, create, rename, remove };
}

export function useProjects(clientId: string): Loaded<{ client: Client | undefined; projects: Bucket[] }> &
  ListActions & {
    create(name: string): Promise<string | null>;
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
    (name: string) =>
      act(
        checkTitle(name, 'create'),
        async () => {
          const res = await api.calls.bucketCreate({ client: clientId, name: name.trim() });
          setCreated(res.bucket.stamp);
        },
        reload,
      ),
    [act, api, clientId, reload],
  );
  const rename = useCallback(
    (id: string, name: string) => act(checkTitle(name, 'rename'), () => api.calls.bucketRename({ bucket: id, name: name.trim() }), reload),
    [act, api, reload],
  );
  const remove = useCallback(
    (id: string) => act(null, () => api.calls.bucketRemove({ bucket: id, active: 0 }), reload),
    [act, api, reload],
  );
  return { ...loaded, create, rename, remove, created };
}

export function useModels(
  clientId: string,
  bucketId: string,
): Loaded<{ client: Client; project: Bucket; general: Model[]; own: Model[] }> & ListActions {
  const api = useApi();
  const act = useAct();
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
  const rename = useCallback(
    (id: string, name: string) => act(checkTitle(name, 'rename'), () => api.calls.modelRename({ model: id, name: name.trim() }), reload),
    [act, api, reload],
  );
  const remove = useCallback((id: string) => act(null, () => api.calls.modelRemove({ model: id, active: 0 }), reload), [act, api, reload]);
  return { ...loaded, rename, remove };
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
  const act = useAct();
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
  const rename = useCallback(
    (id: string, name: string) => act(checkTitle(name, 'rename'), () => api.calls.runRename({ run: id, name: name.trim() }), reload),
    [act, api, reload],
  );
  const remove = useCallback((id: string) => act(null, () => api.calls.runRemove({ run: id, active: 0 }), reload), [act, api, reload]);
  return { ...loaded, rename, remove, filters, setFilters };
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
  const act = useAct();
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
  const rename = useCallback(
    (id: string, name: string) => act(checkTitle(name, 'rename'), () => api.calls.rendRename({ rend: id, name: name.trim() }), reload),
    [act, api, reload],
  );
  const remove = useCallback((id: string) => act(null, () => api.calls.rendRemove({ rend: id, active: 0 }), reload), [act, api, reload]);
  const upload = useCallback(
    async (files: UploadSource[], opts: UploadOptions = {}): Promise<string | null> => {
      setUploading(++running.current > 0);
      try {
        const result = await runUpload(api, { bucket: bucketId, files, onProgress: opts.onProgress, signal: opts.signal });
        for (const f of result.files) notify(MESSAGES.uploadSucceeded(f.name), 'uploadSuccess');
        await reload();
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
  return { ...loaded, rename, remove, upload, uploading };
}
