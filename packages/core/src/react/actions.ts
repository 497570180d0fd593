// Shared shape of list actions: check, call, notify the failure, reload on success.
import { useCallback } from 'react';
import { toApiError } from '../loader';
import { useNotify } from './context';

/** Every action resolves to null on success, or to the message shown (already notified as an error). */
export interface ListActions {
  rename(id: string, name: string): Promise<string | null>;
  remove(id: string): Promise<string | null>;
}

export type Act = (check: string | null, call: () => Promise<unknown>, after?: () => Promise<void>) => Promise<string | null>;

/** Runs one action: a failed check or call is notified and returned; `after` (the reload) runs on success. */
export function useAct(): Act {
  const notify = useNotify();
  return useCallback<Act>(
    async (check, call, after) => {
      if (check) {
        notify(check, 'error');
        return check;
      }
      try {
        await call();
      } catch (e) {
        const error = toApiError(e);
        // Sign-in failures are shown by the door's onAuthFailure, which also leaves the screen.
        if (!error.isAuth) notify(error.display, 'error');
        return error.display;
      }
      await after?.();
      return null;
    },
    [notify],
  );
}
