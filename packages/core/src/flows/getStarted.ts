// Reads what the "Get started" steps are ticked from (rules/getStarted.ts), in every door: a few short list calls.
import type { ApiClient } from '../client';
import type { Client, PermissionEntry } from '../contract';
import { isTrained, type StartFacts } from '../rules/getStarted';

/** Projects looked at for data and models: a new account has one or two; past this the path is long done. */
const START_PROJECTS_MAX = 20;
/** Projects with requests whose models are looked at, newest first. */
const START_MODEL_PROJECTS_MAX = 5;

/** The client a user's path is about: the one the user has had longest (sign-up made it), else none. */
export function startClient(permissions: readonly PermissionEntry[]): Client | undefined {
  return [...permissions].sort((a, b) => a.createdAt - b.createdAt)[0]?.client;
}

/** The facts of one client's path: its projects, whether it has a key and a trained model. */
export async function loadStartFacts(api: ApiClient, client: Pick<Client, 'stamp' | 'choice'>, signal?: AbortSignal): Promise<StartFacts> {
  const opts = { signal };
  const usesProjects = client.choice !== 'Premise';
  const [projectList, keys] = await Promise.all([
    usesProjects ? api.calls.bucketList({ active: 1, client: client.stamp, limit: START_PROJECTS_MAX }, opts) : null,
    api.calls.apikeyList({ client: client.stamp }, opts),
  ]);
  const projects = projectList?.bucket.list ?? [];
  const withRuns = projects.filter((p) => p.runs > 0).slice(0, START_MODEL_PROJECTS_MAX);
  const models = await Promise.all(withRuns.map((p) => api.calls.clientModelList({ active: 1, bucket: p.stamp }, opts)));
  return {
    clientId: client.stamp,
    choice: client.choice,
    projects,
    keys: keys.apikey.list.filter((k) => k.active === 1).length,
    trained: models.some((m) => m.model.list.some(isTrained)),
  };
}
