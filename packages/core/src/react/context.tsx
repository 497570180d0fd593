// The provider each door wraps its app in: one API client, one notifier and one data cache shared by every hook.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { focusManager, QueryClientProvider } from '@tanstack/react-query';
import type { ApiClient } from '../client';
import { createPortalQueryClient, setPollTimers } from '../query';
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

/**
 * A door's own signal that its window gained or lost focus, where it has one other than a browser window's (the
 * terminal's focus reports): the cache reads the stale answers on screen again when focus comes back.
 */
export interface FocusSignal {
  subscribe(listener: (focused: boolean) => void): () => void;
}

/**
 * `timers`: the clock the hooks poll on (the platform's unless a test passes a manual one); `focus`: the door's focus
 * signal, where it is not a browser window's. The data cache lives as
 * long as the provider and its API client: a new client (another server, another sign-in) starts an empty one.
 */
export function PortalProvider(props: { api: ApiClient; notifier: Notifier; timers?: Timers; focus?: FocusSignal; children: ReactNode }) {
  const { api, notifier, timers = systemTimers, focus, children } = props;
  // One notify function for the provider's life, whatever notifier object a render passes:
  // hooks list it in their dependencies, so a new identity would restart their loaders.
  const latest = useRef(notifier);
  latest.current = notifier;
  const notify = useCallback<Notifier['notify']>((message, kind, opts) => latest.current.notify(message, kind, opts), []);
  const value = useMemo(() => ({ api, notify, timers }), [api, notify, timers]);
  setPollTimers(timers);
  const queryClient = useMemo(
    // A read's failure is told once per run of failures, whichever screens show it; its meta names SPEC's sentence.
    () =>
      createPortalQueryClient({
        onReadError: (error, query, first) => {
          const failure = query.meta?.failure;
          if (first && typeof failure === 'string' && !error.isAuth) latest.current.notify(failure, 'error');
        },
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one cache per API client
    [api],
  );
  // Nothing held outlives the door: its timers (keeping, staleness) end with it, so a terminal UI that quits exits.
  useEffect(() => () => queryClient.clear(), [queryClient]);
  // The door's focus drives the library's (refetchOnWindowFocus); when it goes, the browser's own signal is back.
  useEffect(() => {
    if (!focus) return;
    const stop = focus.subscribe((focused) => focusManager.setFocused(focused));
    return () => {
      stop();
      focusManager.setFocused(undefined);
    };
  }, [focus]);
  return (
    <QueryClientProvider client={queryClient}>
      <PortalContext.Provider value={value}>{children}</PortalContext.Provider>
    </QueryClientProvider>
  );
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
