// What the chrome knows about where the user is: the user's clients (from permissions) and names for the crumbs.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { Client, CrumbNames } from '@portal/core';
import { usePermissions } from '@portal/core/react';

export interface Chrome {
  clients: Client[] | undefined;
  /** True while the permission list is first loading (false once it loaded or failed). */
  clientsLoading: boolean;
  /** Set when the permission list could not be loaded. */
  clientsError: unknown;
  names: CrumbNames;
  setNames(names: CrumbNames): void;
  reloadClients(): Promise<void>;
}

const ChromeContext = createContext<Chrome | null>(null);

export function ChromeProvider({ children }: { children: ReactNode }) {
  const permissions = usePermissions();
  const [names, setNamesState] = useState<CrumbNames>({});
  const clients = permissions.data?.map((p) => p.client);
  const value: Chrome = {
    clients,
    clientsLoading: permissions.loading && !permissions.data,
    clientsError: permissions.error,
    names,
    setNames: (n) =>
      setNamesState((old) => (Object.entries(n).every(([k, v]) => old[k as keyof CrumbNames] === v) ? old : { ...old, ...n })),
    reloadClients: permissions.reload,
  };
  return <ChromeContext.Provider value={value}>{children}</ChromeContext.Provider>;
}

export function useChrome(): Chrome {
  const c = useContext(ChromeContext);
  if (!c) throw new Error('useChrome outside ChromeProvider');
  return c;
}

/** The client of the current route, from the permission list the chrome already holds (core's useClient loads it). */
export function useRouteClient(clientId: string | undefined): Client | undefined {
  const { clients } = useChrome();
  return clientId ? clients?.find((c) => c.stamp === clientId) : undefined;
}

/** A page tells the chrome the names it loaded, for the sidebar and breadcrumbs. */
export function useCrumbNames(names: CrumbNames): void {
  const { setNames } = useChrome();
  const key = JSON.stringify(names);
  useEffect(() => {
    setNames(JSON.parse(key) as CrumbNames);
  }, [key, setNames]);
}
