// `portal projects list`: the account's projects, the default one marked.
import { isApiError, MESSAGES, type Project } from '@portal/core';
import type { Session } from '../context';
import { time } from '../common';
import { listVerb } from '../shared/list';

/** An account known by its id (--client, or the one kept at sign-in) is asked for its projects at once: the server
 * checks membership on that call. A name, or an id it refuses, falls back to the account look-up. */
async function projects(s: Session): Promise<Project[]> {
  const api = await s.api();
  const known = s.opts.client ?? (await s.host()).get('client');
  const listed = known
    ? await api.calls.bucketList({ active: 1, client: known }).then(
        (r) => r.bucket,
        (e: unknown) => {
          if (isApiError(e) && (e.status === 403 || e.status === 404 || e.status === 400)) return null;
          throw e;
        },
      )
    : null;
  return (listed ?? (await api.calls.bucketList({ active: 1, client: (await s.client()).stamp })).bucket).list;
}

export const { options, run } = listVerb<Project>({
  summary: 'List projects: name, id, requests, uploads, created',
  examples: ['portal projects list', 'portal projects list --json | jq -r ".[].id"'],
  rows: (_opts, s) => projects(s),
  columns: async (s) => {
    const current = (await s.host()).get('project');
    return [
      { header: 'Name', get: (b) => b.name },
      { header: 'ID', get: (b) => b.stamp },
      { header: 'Requests', get: (b) => b.runs },
      { header: 'Uploads', get: (b) => b.rends },
      { header: 'Created', get: (b) => time(b.createdAt) },
      { header: 'Default', get: (b) => (b.stamp === current ? 'yes' : '') },
    ];
  },
  empty: MESSAGES.noProjects,
});
