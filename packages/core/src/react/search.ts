// The quick search (Ctrl+K / Cmd+K in the browser): every screen and every thing of the client the user can jump to,
// loaded when the search opens, and the one matching rule the doors share.
import { useMemo } from 'react';
import type { ApiClient } from '../client';
import { SCREENS, screenPath, type ScreenParams } from '../screens';
import { useApi } from './context';
import { JUMP_VIEW, viewKey } from '../query';
import { useLoad, type Loaded } from './useLoad';

export type JumpKind = 'Screen' | 'Client' | 'Project' | 'Upload' | 'Request' | 'Model' | 'API key' | 'Integration';

export interface JumpTarget {
  kind: JumpKind;
  /** What it is called (a project's name, a screen's title). */
  label: string;
  /** Where it sits (its project, its client), shown beside the label. */
  detail?: string;
  path: string;
}

/** How many of the client's projects have their uploads, requests and models searched (the current one first). */
export const JUMP_PROJECTS = 5;

/** Screens reachable with the params at hand: those needing an id the user is not on (a run, a key) are left out. */
export function jumpScreens(params: ScreenParams): JumpTarget[] {
  return SCREENS.filter((s) => s.auth && s.params.every((p) => params[p]) && s.nav).map((s) => ({
    kind: 'Screen' as const,
    label: s.nav?.label ?? s.title,
    detail: s.title === s.nav?.label ? undefined : s.title,
    path: screenPath(s.id, params),
  }));
}

/** Ranks targets for what was typed: every word must appear; a label that starts with the query comes first. */
export function matchJumps(targets: readonly JumpTarget[], query: string, max = 50): JumpTarget[] {
  const q = query.trim().toLowerCase();
  if (!q) return targets.slice(0, max);
  const words = q.split(/\s+/);
  const scored: Array<{ t: JumpTarget; score: number }> = [];
  for (const t of targets) {
    const label = t.label.toLowerCase();
    const hay = `${label} ${t.kind.toLowerCase()} ${(t.detail ?? '').toLowerCase()}`;
    if (!words.every((w) => hay.includes(w))) continue;
    scored.push({ t, score: label === q ? 0 : label.startsWith(q) ? 1 : label.includes(q) ? 2 : 3 });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.t.label.localeCompare(b.t.label))
    .slice(0, max)
    .map((s) => s.t);
}

async function loadTargets(api: ApiClient, clientId: string | undefined, projectId: string | undefined, signal: AbortSignal) {
  const o = { signal };
  const out: JumpTarget[] = [];
  const settled = <T>(p: Promise<T>) =>
    p.then(
      (v) => v,
      () => undefined,
    );
  const perms = await settled(api.calls.permissions(undefined, o));
  for (const p of perms ?? [])
    out.push({ kind: 'Client', label: p.client.name, path: screenPath('projects', { clientId: p.client.stamp }) });
  if (!clientId) return out;
  const [projectList, keys, integrations] = await Promise.all([
    settled(api.calls.bucketList({ active: 1, client: clientId }, o)),
    settled(api.calls.apikeyList({ client: clientId }, o)),
    settled(api.calls.integrationList({ client: clientId }, o)),
  ]);
  for (const k of keys?.apikey.list ?? [])
    if (k.active === 1) out.push({ kind: 'API key', label: k.name, path: screenPath('apikeyInfo', { clientId, apikeyId: k.clue }) });
  for (const k of integrations?.apikey.list ?? [])
    if (k.active === 1) out.push({ kind: 'Integration', label: k.name, path: screenPath('integrations', { clientId }) });
  const projects = [...(projectList?.bucket.list ?? [])].sort((a, b) =>
    a.stamp === projectId ? -1 : b.stamp === projectId ? 1 : b.createdAt - a.createdAt,
  );
  for (const b of projects) out.push({ kind: 'Project', label: b.name, path: screenPath('runs', { clientId, projectId: b.stamp }) });
  await Promise.all(
    projects.slice(0, JUMP_PROJECTS).map(async (b) => {
      const at = { clientId, projectId: b.stamp };
      const [uploads, runs, models] = await Promise.all([
        settled(api.calls.rendList({ active: 1, bucket: b.stamp }, o)),
        settled(api.calls.runList({ active: 1, bucket: b.stamp }, o)),
        settled(api.calls.clientModelList({ active: 1, bucket: b.stamp }, o)),
      ]);
      for (const r of uploads?.rend.list ?? [])
        out.push({ kind: 'Upload', label: r.name, detail: b.name, path: screenPath('uploads', at) });
      for (const r of runs?.run.list ?? [])
        out.push({
          kind: 'Request',
          label: r.name,
          detail: b.name,
          path: r.quote ? screenPath('quoteDetails', { ...at, quoteId: r.quote }) : screenPath('runDetails', { ...at, runId: r.stamp }),
        });
      for (const m of models?.model.list ?? []) out.push({ kind: 'Model', label: m.name, detail: b.name, path: screenPath('models', at) });
    }),
  );
  return out;
}

/**
 * What the quick search offers where the user is: the screens, the user's clients, and the current client's
 * projects, keys and integrations with the uploads, requests and models of its latest projects. Loads only while
 * `open`; a call that fails leaves its part out rather than the whole search.
 */
export function useJumpTargets(params: ScreenParams, open: boolean): Loaded<JumpTarget[]> & { targets: JumpTarget[] } {
  const api = useApi();
  const { clientId, projectId } = params;
  const loaded = useLoad(
    viewKey('permissions', { client: clientId, bucket: projectId }, JUMP_VIEW),
    (signal) => loadTargets(api, clientId, projectId, signal),
    {
      refreshOnFocus: false,
      enabled: open,
    },
  );
  const screens = useMemo(() => jumpScreens(params), [params]);
  const targets = useMemo(() => [...screens, ...(loaded.data ?? [])], [screens, loaded.data]);
  return { ...loaded, targets };
}
