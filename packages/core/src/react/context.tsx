// The provider each door wraps its app in: one API client and one notifier shared by every hook.
import { createContext, useCallback, useContext, useMemo, useRef, type ReactNode } from 'react';
import type { ApiClient } from '../client';
import { systemTimers, type Timers } from '../timers';

/** How long each kind stays is NOTIFY_MS; the renderer applies it. */
export type NotifyKind = 'default' | 'error' | 'success' | 'uploadSuccess';
/** A button on the notice, e.g. Undo while a removal's notice shows. */
export interface NotifyAction {
  label: string;
  run(): void | Promise<void>;
}
export interface Notifier {
  notify(message: string, kind?: NotifyKind, opts?: { action?: NotifyAction }): void;
}

interface Portal {
  api: ApiClient;
  notify: Notifier['notify'];
  timers: Timers;
}

const PortalContext = createContext<Portal | null>(null);

/** `timers`: the clock the hooks poll on (the platform's unless a test passes a manual one). */
export function PortalProvider(props: { api: ApiClient; notifier: Notifier; timers?: Timers; children: ReactNode }) {
  const { api, notifier, timers = systemTimers, children } = props;
  // One notify function for the provider's life, whatever notifier object a render passes:
  // hooks list it in their dependencies, so a new identity would restart their loaders.
  const latest = useRef(notifier);
  latest.current = notifier;
  const notify = useCallback<Notifier['notify']>((message, kind, opts) => latest.current.notify(message, kind, opts), []);
  const value = useMemo(() => ({ api, notify, timers }), [api, notify, timers]);
  return <PortalContext.Provider value={value}>{children}</PortalContext.Provider>;
}

function usePortal(): Portal {
  const portal = useContext(PortalContext);
  if (!portal) throw new Error('Portal hooks need a <PortalProvider api={...} notifier={...}> above them.');
  return portal;
}

export function useApi(): ApiClient {
  return usePortal().api;
}

/** The timers polls and follow-ups are scheduled on. */
export function useTimers(): Timers {
  return usePortal().timers;
}

/** A stable function: notify(message, kind). */
export function useNotify(): Notifier['notify'] {
  return usePortal().notify;
}
