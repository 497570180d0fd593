// Sessions you can see on the account page: the account's sessions (this one marked), ending one or every other.
// Every door renders this hook.
import { useCallback, useState } from 'react';
import { toApiError } from '../loader';
import type { CallResponse } from '../contract/calls';
import { useApi } from './context';
import { callKey } from '../query';
import { useLoad } from './useLoad';

export type SessionRow = CallResponse<'sessionList'>['session']['list'][number];

export interface Sessions {
  list: SessionRow[] | undefined;
  problem: string | null;
  /** Whether a change is under way (buttons wait). */
  busy: boolean;
  end(id: string): Promise<void>;
  endOthers(): Promise<void>;
}

export function useSessions(): Sessions {
  const api = useApi();
  const load = useLoad(callKey('sessionList'), (signal) => api.calls.sessionList(undefined, { signal }));
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (step: () => Promise<unknown>) => {
      setProblem(null);
      setBusy(true);
      try {
        await step();
      } catch (e) {
        setProblem(toApiError(e).display);
      } finally {
        setBusy(false);
        await load.reload();
      }
    },
    [load],
  );
  return {
    list: load.data?.session.list,
    problem: problem ?? load.error?.display ?? null,
    busy,
    end: (id) => run(() => api.calls.sessionEnd({ id })),
    endOthers: () => run(() => api.calls.sessionEndOthers(undefined)),
  };
}
