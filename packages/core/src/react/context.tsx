// The provider each door wraps its app in: one API client and one notifier shared by every hook.
import { createContext, useCallback, useContext, useMemo, useRef, type ReactNode } from 'react';
import type { ApiClient } from '../client';

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
}

const PortalContext = createContext<Portal | null>(null);

export function PortalProvider(props: { api: ApiClient; notifier: Notifier; children: ReactNode }) {
  const { api, notifier, children } = props;
  // One notify function for the provider's life, whatever notifier object a render passes:
  // hooks list it in their dependencies, so a new identity would restart their loaders.
  const latest = useRef(notifier);
  latest.current = notifier;
  const notify = useCallback<Notifier['notify']>((message, kind, opts) => latest.current.notify(message, kind, opts), []);
  const value = useMemo(() => ({ api, notify }), [api, notify]);
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

/** A stable function: notify(message, kind). */
export function useNotify(): Notifier['notify'] {
  return usePortal().notify;
}
