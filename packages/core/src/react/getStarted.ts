// The "Get started" screen's hook: the user's path (steps ticked from the account's data) and its dismissal.
import { useCallback, useMemo, useState } from 'react';
import type { Client } from '../contract';
import { readClaims } from '../client';
import { loadStartFacts, startClient } from '../flows/getStarted';
import { nextStartStep, startDismissKey, startSteps, type StartDismissStore, type StartStep } from '../rules/getStarted';
import { useApi } from './context';
import { usePermissions } from './lists';
import { START_VIEW, viewKey } from '../query';
import { useLoad, type Loaded } from './useLoad';

export interface GetStarted {
  /** The client the path is about (the user's own from sign-up), once known. */
  client: Client | undefined;
  /** The steps, each ticked from the account's data (empty until loaded). */
  steps: StartStep[];
  /** The first step not done, or null when all are. */
  next: StartStep | null;
  loading: boolean;
  error: Loaded<unknown>['error'];
  /** The user put the path away (the sidebar still links to it). */
  dismissed: boolean;
  dismiss(): void;
  /** Show the path again where a door shows it unasked. */
  restore(): void;
  reload(): Promise<void>;
}

/**
 * The path for the signed-in user; `store` keeps the dismissal per user and client (web: local storage, terminal:
 * its config file). `clientId` picks a client; by default the one the user has had longest.
 */
export function useGetStarted(store: StartDismissStore, clientId?: string): GetStarted {
  const api = useApi();
  const permissions = usePermissions();
  const client = useMemo(
    () => (clientId ? permissions.data?.find((p) => p.client.stamp === clientId)?.client : startClient(permissions.data ?? [])),
    [permissions.data, clientId],
  );
  const facts = useLoad(
    viewKey('bucketList', { client: client?.stamp, choice: client?.choice }, START_VIEW),
    (signal) => (client ? loadStartFacts(api, client, signal) : Promise.resolve(null)),
    { enabled: !!client },
  );
  const steps = useMemo(() => (facts.data ? startSteps(facts.data) : []), [facts.data]);
  const token = api.tokens.get();
  const key = useMemo(() => startDismissKey(String(readClaims(token ?? '')?.sub ?? ''), client?.stamp ?? ''), [token, client?.stamp]);
  // Read from the store on each render of a new key; a local copy so the door redraws at once.
  const [local, setLocal] = useState<{ key: string; dismissed: boolean } | null>(null);
  const dismissed = local?.key === key ? local.dismissed : store.get(key);
  const put = useCallback(
    (value: boolean) => {
      store.set(key, value);
      setLocal({ key, dismissed: value });
    },
    [store, key],
  );
  const dismiss = useCallback(() => put(true), [put]);
  const restore = useCallback(() => put(false), [put]);
  const { reload: reloadFacts } = facts;
  const { reload: reloadPermissions } = permissions;
  const reload = useCallback(async () => {
    await Promise.all([reloadPermissions(), reloadFacts()]);
  }, [reloadPermissions, reloadFacts]);
  return {
    client,
    steps,
    next: nextStartStep(steps),
    loading: permissions.loading || facts.loading || (!!client && !facts.data && !facts.error),
    error: permissions.error ?? facts.error,
    dismissed,
    dismiss,
    restore,
    reload,
  };
}
