// Requests connected through a model: the fit whose model a generate applies, and the generates made from a fit.
import { useMemo } from 'react';
import type { Run } from '../contract';
import { useApi } from './context';
import { callKey } from '../query';
import { useLoad } from './useLoad';

export interface RelatedRuns {
  /** For a generate: the fit request that trained its model (null for a general model, or when it was removed). */
  source: Run | null;
  /** For a fit: the generate requests that apply its model, newest first. */
  generates: Run[];
}

const runsOf = (res: { run: { list: Run[] } }) => res.run.list;

/** Reads the project's requests once the request is known (fit and generate only; a shrink has none). */
export function useRelatedRuns(projectId: string, run: Pick<Run, 'stamp' | 'function' | 'fit'> | undefined): RelatedRuns {
  const api = useApi();
  const wanted = run && run.function !== 'shrink' ? run.stamp : '';
  const query = { active: 1 as const, bucket: projectId };
  const loaded = useLoad(callKey('runList', query), (signal) => api.calls.runList(query, { signal }), {
    enabled: !!wanted,
    select: runsOf,
  });
  const list = loaded.data;
  return useMemo(() => {
    if (!run || !wanted || !list) return { source: null, generates: [] };
    const source = run.function === 'generate' && run.fit ? (list.find((r) => r.stamp === run.fit) ?? null) : null;
    const generates =
      run.function === 'fit'
        ? list.filter((r) => r.function === 'generate' && r.fit === run.stamp).sort((a, b) => b.createdAt - a.createdAt)
        : [];
    return { source, generates };
  }, [run, wanted, list]);
}
