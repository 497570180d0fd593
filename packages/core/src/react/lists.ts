// One hook per list screen, each built on useEntityList (load, rename, remove and their notices) plus what its
// screen adds (create, filters, uploading).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type {
  Bucket,
  CallResponse,
  Client,
  ClientApiKey,
  IntegrationKey,
  ListOrder,
  Model,
  PermissionEntry,
  Rend,
  Run,
  RunFunction,
} from '../contract';
import type { ApiClient } from '../client';
import { MESSAGES } from '../messages';
import { canCreateApiKey, checkIntegration, checkTitle, firstError, type IntegrationInput } from '../rules';
import { toApiError } from '../loader';
import { isAbortError } from '../timers';
import { convertTables, runUpload, TableTextError, type ReadableSource, type UploadProgress } from '../upload';
import { doneMessages, useAct, useRemoveMany, type ActOptions, type ListActions } from './actions';
import { useApi, useNotify } from './context';
import { useLoad, type Loaded, type UseLoadOptions } from './useLoad';
import type { ListPaging } from './pager';
import { REFRESH_MS, runSettled, uploadSettled } from '../refresh';
import { callKey, invalidateNoun, renameEverywhere, viewKey, type CallKey, type Noun } from '../query';

/** What a list screen's rows are and how one is renamed and removed: one constant per noun. */
export interface EntityListSpec<P extends Record<string, string | undefined>, D, R = D> {
  /** The noun of the notices ('Project' gives 'Project removed.') and of the reads a change to one makes old. */
  noun: Noun;
  /** Whether a removal's notice offers Undo (the remove call with active=1); keys do not (their tokens are revoked). */
  restorable: boolean;
  /** The cache key of the read for `params` (the call and what it is sent with). */
  key(params: P): CallKey;
  /** Reads the call's answer; it is read again when any parameter changes. */
  load(api: ApiClient, params: P, signal: AbortSignal): Promise<R>;
  /** The screen's data from the answer held (the cache holds the answer as the call gave it, shared by other screens). */
  select?(raw: R, params: P): D;
  /** The list's failure text and polling (rows that change on the server). */
  options?: UseLoadOptions<D>;
  rename(api: ApiClient, id: string, name: string): Promise<unknown>;
  /** The API's remove call: active 0 removes, 1 restores. */
  remove(api: ApiClient, id: string, active: 0 | 1): Promise<unknown>;
}

/**
 * The spine of every list hook: loads the list for `params` (again when one changes) and offers rename and remove
 * with their notices, the title rule checked before rename is sent.
 */
export function useEntityList<P extends Record<string, string | undefined>, D, R = D>(
  spec: EntityListSpec<P, D, R>,
  params: P,
  paging?: ListPaging,
): Loaded<D> & ListActions {
  const api = useApi();
  const act = useAct();
  const queryClient = useQueryClient();
  const paramsKey = JSON.stringify(params);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the parameters by value, not by the object of each render
  const select = useMemo(() => (spec.select ? (raw: R) => spec.select!(raw, params) : undefined), [spec, paramsKey]);
  const loaded = useLoad<R, D>(spec.key(params), (signal) => spec.load(api, params, signal), { ...spec.options, select });
  // A change to one of these makes every read that shows it old: the ones on screen (this list among them) are
  // read again before the notice, the rest when next shown.
  const noun = spec.noun;
  const reload = useChanged(noun);
  // The screen's paging learns from each answer whether the list is long.
  const next = (loaded.data as Next | undefined)?.next;
  const seen = paging?.seen;
  useEffect(() => seen?.(next), [seen, next]);
  const done = useMemo(() => doneMessages(spec.noun), [spec.noun]);
  const rename = useCallback(
    (id: string, name: string, opts?: ActOptions) =>
      act(
        checkTitle(name, 'rename'),
        async () => {
          // Shown at once on every screen that shows it; put back as it was when the server refuses.
          const undo = await renameEverywhere(queryClient, noun, id, name.trim());
          try {
            await spec.rename(api, id, name.trim());
          } catch (e) {
            undo();
            throw e;
          }
        },
        reload,
        { message: done.renamed(name.trim()) },
        opts,
      ),
    [act, api, spec, reload, done, queryClient, noun],
  );
  const remove = useCallback(
    (id: string, opts?: ActOptions) =>
      act(
        null,
        () => spec.remove(api, id, 0),
        reload,
        {
          message: done.removed,
          undo: spec.restorable ? { run: () => spec.remove(api, id, 1), done: done.restored, failure: done.restoreFailed } : undefined,
        },
        opts,
      ),
    [act, api, spec, reload, done],
  );
  const removeCall = useCallback((id: string, active: 0 | 1) => spec.remove(api, id, active), [api, spec]);
  const removeMany = useRemoveMany(spec.noun, removeCall, reload);
  return spec.restorable ? { ...loaded, rename, remove, removeMany } : { ...loaded, rename, remove };
}

/** Makes every read that shows `noun` old (invalidateNoun): what a list's create, rename and remove run after the call. */
export function useChanged(noun: Noun): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => invalidateNoun(queryClient, noun), [queryClient, noun]);
}

/** Makes the permission list old (the clients the user has): after joining or leaving one. */
export function useClientsChanged(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: callKey('permissions') }), [queryClient]);
}

const byStamp = (list: readonly Client[], stamp: string) => list.find((c) => c.stamp === stamp);

/**
 * A page a list hook may ask for: `limit` rows after `cursor` (core's `usePager` gives one), or a screen's
 * `useListPaging`, which the hook also tells whether the list is long.
 */
export interface PageRequest {
  limit: number;
  cursor?: string;
  /** The project list only: its order and a part of the names to find (useListPaging's `searched`). */
  order?: ListOrder;
  q?: string;
}
type PageAsked = PageRequest | ListPaging | undefined;
const pagingOf = (page: PageAsked): ListPaging | undefined => (page && 'seen' in page ? page : undefined);
/** The page as the spine's parameters (strings, so a new page loads again), and back as the call's query. */
type PageParams = { limit: string | undefined; cursor: string | undefined; order: string | undefined; q: string | undefined };
const pageParams = (asked: PageAsked): PageParams => {
  const page = pagingOf(asked)?.page ?? (asked as PageRequest | undefined);
  return { limit: page ? String(page.limit) : undefined, cursor: page?.cursor, order: page?.order, q: page?.q };
};
const pageQuery = ({ limit, cursor, order, q }: PageParams) =>
  limit
    ? { limit: Number(limit), ...(cursor ? { cursor } : {}), ...(order ? { order: order as ListOrder } : {}), ...(q ? { q } : {}) }
    : {};
/** `next` beside a paged list's rows: the cursor of the page after (null on the last); absent for a whole list. */
type Next = { next?: string | null };
const nextOf = (envelope: Next): Next => (envelope.next === undefined ? {} : { next: envelope.next });

/** The user's client accounts (SPEC: access is by client membership). */
export function usePermissions(): Loaded<PermissionEntry[]> {
  const api = useApi();
  return useLoad(callKey('permissions'), (signal) => api.calls.permissions(undefined, { signal }), { failure: MESSAGES.fetchPermissions });
}

/** One client from the permission list (its name, plan and choice). */
export function useClient(clientId: string): { client: Client | undefined; loading: boolean; error: Loaded<unknown>['error'] } {
  const { data, loading, error } = usePermissions();
  const client = useMemo(() => data?.find((p) => p.client.stamp === clientId)?.client, [data, clientId]);
  return { client, loading, error };
}

const API_KEYS: EntityListSpec<{ clientId: string }, { client: Client | undefined; keys: ClientApiKey[] }, CallResponse<'apikeyList'>> = {
  noun: 'API key',
  restorable: false,
  key: ({ clientId }) => callKey('apikeyList', { client: clientId }),
  load: (api, { clientId }, signal) => api.calls.apikeyList({ client: clientId }, { signal }),
  select: (res, { clientId }) => ({ client: byStamp(res.client.list, clientId), keys: res.apikey.list.filter((k) => k.active === 1) }),
  rename: (api, apikey, name) => api.calls.apikeyRename({ apikey, name }),
  remove: (api, apikey, active) => api.calls.apikeyRemove({ apikey, active }),
};

export function useApiKeys(clientId: string): Loaded<{ client: Client | undefined; keys: ClientApiKey[] }> &
  ListActions & {
    create(name: string, opts?: ActOptions): Promise<string | null>;
    /** Whether Create is offered: the list has loaded and holds no key (canCreateApiKey). */
    canCreate: boolean;
  } {
  const api = useApi();
  const act = useAct();
  const list = useEntityList(API_KEYS, { clientId });
  const reload = useChanged(API_KEYS.noun);
  const create = useCallback(
    (name: string, opts?: ActOptions) =>
      act(
        checkTitle(name, 'create'),
        () => api.calls.apikeyCreate({ client: clientId, name: name.trim() }),
        reload,
        { message: doneMessages(API_KEYS.noun).created(name.trim()) },
        opts,
      ),
    [act, api, clientId, reload],
  );
  return { ...list, canCreate: canCreateApiKey(list.data?.keys), create };
}

const INTEGRATIONS: EntityListSpec<
  { clientId: string },
  { client: Client | undefined; keys: IntegrationKey[] },
  CallResponse<'integrationList'>
> = {
  noun: 'Integration',
  restorable: false,
  key: ({ clientId }) => callKey('integrationList', { client: clientId }),
  load: (api, { clientId }, signal) => api.calls.integrationList({ client: clientId }, { signal }),
  select: (res, { clientId }) => ({ client: byStamp(res.client.list, clientId), keys: res.apikey.list.filter((k) => k.active === 1) }),
  rename: (api, apikey, name) => api.calls.integrationRename({ apikey, name }),
  remove: (api, apikey, active) => api.calls.integrationRemove({ apikey, active }),
};

export function useIntegrations(clientId: string): Loaded<{ client: Client | undefined; keys: IntegrationKey[] }> &
  ListActions & {
    /** Checks (checkIntegration), creates, notifies "Integration {name} created."; null on success, else the message. */
    create(input: IntegrationInput, opts?: ActOptions): Promise<string | null>;
  } {
  const api = useApi();
  const act = useAct();
  const list = useEntityList(INTEGRATIONS, { clientId });
  const reload = useChanged(INTEGRATIONS.noun);
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
  return { ...list, create };
}

const projectsQuery = ({ clientId, ...page }: { clientId: string } & PageParams) => ({
  active: 1 as const,
  client: clientId,
  ...pageQuery(page),
});
const PROJECTS: EntityListSpec<
  { clientId: string } & PageParams,
  { client: Client | undefined; projects: Bucket[] } & Next,
  CallResponse<'bucketList'>
> = {
  noun: 'Project',
  restorable: true,
  key: (params) => callKey('bucketList', projectsQuery(params)),
  load: (api, params, signal) => api.calls.bucketList(projectsQuery(params), { signal }),
  select: (res, { clientId }) => ({ client: byStamp(res.client.list, clientId), projects: res.bucket.list, ...nextOf(res.bucket) }),
  rename: (api, bucket, name) => api.calls.bucketRename({ bucket, name }),
  remove: (api, bucket, active) => api.calls.bucketRemove({ bucket, active }),
};

export function useProjects(
  clientId: string,
  page?: PageAsked,
): Loaded<{ client: Client | undefined; projects: Bucket[] } & Next> &
  ListActions & {
    create(name: string, opts?: ActOptions): Promise<string | null>;
    /** The stamp of the project made by the last successful create (it is in data after the reload). */
    created: string | null;
  } {
  const api = useApi();
  const act = useAct();
  const [created, setCreated] = useState<string | null>(null);
  const list = useEntityList(PROJECTS, { clientId, ...pageParams(page) }, pagingOf(page));
  const reload = useChanged(PROJECTS.noun);
  const create = useCallback(
    (name: string, opts?: ActOptions) =>
      act(
        checkTitle(name, 'create'),
        async () => {
          const res = await api.calls.bucketCreate({ client: clientId, name: name.trim() });
          setCreated(res.bucket.stamp);
        },
        reload,
        { message: doneMessages(PROJECTS.noun).created(name.trim()) },
        opts,
      ),
    [act, api, clientId, reload],
  );
  return { ...list, create, created };
}

type ModelsData = { client: Client; project: Bucket; general: Model[]; own: Model[] } & Next;
const MODELS: EntityListSpec<{ clientId: string; bucketId: string } & PageParams, ModelsData> = {
  noun: 'Model',
  restorable: true,
  // The project's own models with the general ones: one view of two calls.
  key: ({ bucketId, ...page }) => viewKey('clientModelList', { active: 1, bucket: bucketId, ...pageQuery(page) }, 'withGeneral'),
  // A page is a page of the project's own models; the general models are a short fixed list, always whole.
  async load(api, { bucketId, ...page }, signal) {
    const [own, general] = await Promise.all([
      api.calls.clientModelList({ active: 1, bucket: bucketId, ...pageQuery(page) }, { signal }),
      api.calls.generalModelList({ active: 1 }, { signal }),
    ]);
    return { client: own.client, project: own.bucket, general: general.model.list, own: own.model.list, ...nextOf(own.model) };
  },
  rename: (api, model, name) => api.calls.modelRename({ model, name }),
  remove: (api, model, active) => api.calls.modelRemove({ model, active }),
};

export function useModels(clientId: string, bucketId: string, page?: PageAsked): Loaded<ModelsData> & ListActions {
  return useEntityList(MODELS, { clientId, bucketId, ...pageParams(page) }, pagingOf(page));
}

/** The requests list's filters: one state and one function, or all ('' or undefined). */
export interface RunFilters {
  state?: string;
  function?: RunFunction | '';
}

type RunsParams = { clientId: string; bucketId: string; state: string | undefined; function: string | undefined } & PageParams;
const runsQuery = ({ bucketId, state, function: fn, ...page }: RunsParams) => ({
  active: 1 as const,
  bucket: bucketId,
  ...(state ? { state } : {}),
  ...(fn ? { function: fn as RunFunction } : {}),
  ...pageQuery(page),
});
const RUNS: EntityListSpec<RunsParams, { client: Client; project: Bucket; runs: Run[] } & Next, CallResponse<'runList'>> = {
  noun: 'Request',
  restorable: true,
  key: (params) => callKey('runList', runsQuery(params)),
  load: (api, params, signal) => api.calls.runList(runsQuery(params), { signal }),
  select: (res) => ({ client: res.client, project: res.bucket, runs: res.run.list, ...nextOf(res.run) }),
  // Requests move on the server: the list is read again until every one has settled.
  options: { failure: MESSAGES.loadRequests, pollMs: REFRESH_MS.runs, until: (d) => d.runs.every(runSettled) },
  rename: (api, run, name) => api.calls.runRename({ run, name }),
  remove: (api, run, active) => api.calls.runRemove({ run, active }),
};

export function useRuns(
  clientId: string,
  bucketId: string,
  page?: PageAsked,
): Loaded<{ client: Client; project: Bucket; runs: Run[] } & Next> &
  ListActions & {
    filters: RunFilters;
    setFilters(f: RunFilters): void;
  } {
  const [filters, setFilters] = useState<RunFilters>({});
  const paging = pagingOf(page);
  const list = useEntityList(RUNS, { clientId, bucketId, state: filters.state, function: filters.function, ...pageParams(page) }, paging);
  // The filters are the server's: other filters start again at the first page.
  const first = paging?.first;
  const filter = useCallback(
    (f: RunFilters) => {
      first?.();
      setFilters(f);
    },
    [first],
  );
  return { ...list, filters, setFilters: filter };
}

/** Why an upload failed analysis: the first failed file's own sentence. */
function uploadFailure(r: Rend): string {
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
export type UploadOutcome = { rend: string; error?: undefined } | { rend?: undefined; error: string };

/** Files being sent as one group: the progress of each and the cancel of the group. */
export interface UploadBatch {
  id: number;
  progress: UploadProgress[];
  cancel(): void;
}

const uploadsQuery = ({ bucketId, ...page }: { bucketId: string } & PageParams) => ({
  active: 1 as const,
  bucket: bucketId,
  ...pageQuery(page),
});
const UPLOADS: EntityListSpec<
  { clientId: string; bucketId: string } & PageParams,
  { project?: Bucket; uploads: Rend[] } & Next,
  CallResponse<'rendList'>
> = {
  noun: 'Upload',
  restorable: true,
  key: (params) => callKey('rendList', uploadsQuery(params)),
  load: (api, params, signal) => api.calls.rendList(uploadsQuery(params), { signal }),
  select: (res) => ({ project: res.bucket, uploads: res.rend.list, ...nextOf(res.rend) }),
  // Uploads being analysed move to Ready or Failed on the server: the list is read again until they settle.
  options: { failure: MESSAGES.fetchUploads, pollMs: REFRESH_MS.uploads, until: (d) => d.uploads.every(uploadSettled) },
  rename: (api, rend, name) => api.calls.rendRename({ rend, name }),
  remove: (api, rend, active) => api.calls.rendRemove({ rend, active }),
};

export function useUploads(
  clientId: string,
  bucketId: string,
  page?: PageAsked,
): Loaded<{ project?: Bucket; uploads: Rend[] } & Next> &
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
  const loaded = useEntityList(UPLOADS, { clientId, bucketId, ...pageParams(page) }, pagingOf(page));
  const reload = useChanged(UPLOADS.noun);

  // Uploads just made are followed until their analysis ends: their row shows the progress and the state, and one
  // notice at the end says how it ended (Ready, or the failure), rather than one notice per step.
  const [following, setFollowing] = useState<Array<{ rend: string; files: string }>>([]);
  const list = loaded.data?.uploads;
  useEffect(() => {
    if (following.length === 0 || !list) return;
    const settled = following.filter(({ rend, files }) => {
      const r = list.find((x) => x.stamp === rend);
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
        const result = await runUpload(api, { bucket: bucketId, files, onProgress, signal: controller.signal });
        // Not followed (the caller reports what comes next): SPEC's notice for each file now.
        if (!follow) for (const f of result.files) notify(MESSAGES.uploadSucceeded(f.name), 'uploadSuccess');
        await reload();
        // Followed from the list that holds it (before that reload, it would look removed).
        if (follow) setFollowing((all) => [...all, { rend: result.rend, files: result.files.map((f) => f.name).join(', ') }]);
        return { rend: result.rend };
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
    [api, bucketId, notify, reload],
  );
  return { ...loaded, upload, uploading: batches.length > 0, batches };
}
