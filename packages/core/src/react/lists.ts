// One hook per list screen, each built on useEntityList (entityList.ts) plus what its screen adds (create, filters);
// the uploads list, with its uploading, is in uploadList.ts.
import { useCallback, useMemo, useState } from 'react';
import type { Project, CallResponse, Client, ClientApiKey, IntegrationKey, Model, PermissionEntry, Run, RunFunction } from '../contract';
import { MESSAGES } from '../messages';
import { canCreateApiKey, checkIntegration, checkTitle, firstError, type IntegrationInput } from '../rules';
import { doneMessages, useAct, type ActOptions, type ListActions } from './actions';
import { useApi } from './context';
import { useLoad, type Loaded } from './useLoad';
import { REFRESH_MS, runSettled } from '../refresh';
import { callKey, viewKey } from '../query';
import { byStamp, nextOf, pageParams, pageQuery, pagingOf, useChanged, useEntityList } from './entityList';
import type { EntityListSpec, Next, PageAsked, PageParams } from './entityList';

export { type PageRequest } from './entityList';

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
  { client: Client | undefined; projects: Project[] } & Next,
  CallResponse<'bucketList'>
> = {
  noun: 'Project',
  restorable: true,
  key: (params) => callKey('bucketList', projectsQuery(params)),
  load: (api, params, signal) => api.calls.bucketList(projectsQuery(params), { signal }),
  select: (res, { clientId }) => ({ client: byStamp(res.client.list, clientId), projects: res.bucket.list, ...nextOf(res.bucket) }),
  rename: (api, project, name) => api.calls.bucketRename({ bucket: project, name }),
  remove: (api, project, active) => api.calls.bucketRemove({ bucket: project, active }),
};

export function useProjects(
  clientId: string,
  page?: PageAsked,
): Loaded<{ client: Client | undefined; projects: Project[] } & Next> &
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

type ModelsData = { client: Client; project: Project; general: Model[]; own: Model[] } & Next;
const MODELS: EntityListSpec<{ clientId: string; projectId: string } & PageParams, ModelsData> = {
  noun: 'Model',
  restorable: true,
  // The project's own models with the general ones: one view of two calls.
  key: ({ projectId, ...page }) => viewKey('clientModelList', { active: 1, bucket: projectId, ...pageQuery(page) }, 'withGeneral'),
  // A page is a page of the project's own models; the general models are a short fixed list, always whole.
  async load(api, { projectId, ...page }, signal) {
    const [own, general] = await Promise.all([
      api.calls.clientModelList({ active: 1, bucket: projectId, ...pageQuery(page) }, { signal }),
      api.calls.generalModelList({ active: 1 }, { signal }),
    ]);
    return { client: own.client, project: own.bucket, general: general.model.list, own: own.model.list, ...nextOf(own.model) };
  },
  rename: (api, model, name) => api.calls.modelRename({ model, name }),
  remove: (api, model, active) => api.calls.modelRemove({ model, active }),
};

export function useModels(clientId: string, projectId: string, page?: PageAsked): Loaded<ModelsData> & ListActions {
  return useEntityList(MODELS, { clientId, projectId, ...pageParams(page) }, pagingOf(page));
}

/** The requests list's filters: one state and one function, or all ('' or undefined). */
export interface RunFilters {
  state?: string;
  function?: RunFunction | '';
}

type RunsParams = { clientId: string; projectId: string; state: string | undefined; function: string | undefined } & PageParams;
const runsQuery = ({ projectId, state, function: fn, ...page }: RunsParams) => ({
  active: 1 as const,
  bucket: projectId,
  ...(state ? { state } : {}),
  ...(fn ? { function: fn as RunFunction } : {}),
  ...pageQuery(page),
});
const RUNS: EntityListSpec<RunsParams, { client: Client; project: Project; runs: Run[] } & Next, CallResponse<'runList'>> = {
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
  projectId: string,
  page?: PageAsked,
): Loaded<{ client: Client; project: Project; runs: Run[] } & Next> &
  ListActions & {
    filters: RunFilters;
    setFilters(f: RunFilters): void;
  } {
  const [filters, setFilters] = useState<RunFilters>({});
  const paging = pagingOf(page);
  const list = useEntityList(RUNS, { clientId, projectId, state: filters.state, function: filters.function, ...pageParams(page) }, paging);
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
