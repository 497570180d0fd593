// The provider each door wraps its app in: one API client and one notifier shared by every hook.
import { createContext, useContext, type ReactNode } from 'react';
import type { ApiClient } from '../client';

/** How long each kind stays is NOTIFY_MS; the renderer applies it. */
export type NotifyKind = 'default' | 'error' | 'success' | 'uploadSuccess';
export interface Notifier {
  notify(message: string, kind?: NotifyKind): void;
}

interface Portal {
  api: ApiClient;
  notifier: Notifier;
}

const PortalContext = createContext<Portal | null>(null);

export function PortalProvider(props: { api: ApiClient; notifier: Notifier; children: ReactNode }) {
  const { api, notifier, children } = props;
  return <PortalContext.Provider value={{ api, notifier }}>{children}</PortalContext.Provider>;
}

function usePortal(): Portal {
  const portal = useContext(PortalContext);
  if (!portal) throw new Error('Portal hooks need a <PortalProvider api={...} notifier={...}> above them.');
  return portal;
}

export function useApi(): ApiClient {
  return usePortal().api;
}

export function useNotify(): Notifier['notify'] {
  const { notifier } = usePortal();
  return notifier.notify.bind(notifier);
}
