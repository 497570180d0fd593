// Shared shape of list actions: check, call, notify the outcome (success with Undo for a removal, or the failure), reload.
import { useCallback, useMemo } from 'react';
import { toApiError } from '../loader';
import { MESSAGES } from '../messages';
import { useNotify } from './context';

/** `inline`: a form shows the failure beside its field, so no notice repeats it. */
export interface ActOptions {
  inline?: boolean;
}

/** Every action resolves to null on success, or to the message shown (notified as an error unless `inline`). */
export interface ListActions {
  rename(id: string, name: string, opts?: ActOptions): Promise<string | null>;
  remove(id: string, opts?: ActOptions): Promise<string | null>;
  /** Removes several together: one notice, one Undo that restores them all (lists whose removals can be undone). */
  removeMany?(ids: string[]): Promise<string | null>;
}

export interface ActSuccess {
  /** The notice on success, e.g. 'Project removed.'. */
  message: string;
  /** Offered as Undo on the notice while it shows: puts the change back. */
  undo?: { run: () => Promise<unknown>; done: string; failure: string };
}

export type Act = (
  check: string | null,
  call: () => Promise<unknown>,
  after?: () => Promise<void>,
  success?: ActSuccess,
  opts?: ActOptions,
) => Promise<string | null>;

/** Runs one action: a failed check or call is notified and returned; on success `after` (the reload) runs, then the notice. */
export function useAct(): Act {
  const notify = useNotify();
  return useCallback<Act>(
    async (check, call, after, success, opts = {}) => {
      if (check) {
        if (!opts.inline) notify(check, 'error');
        return check;
      }
      try {
        await call();
      } catch (e) {
        const error = toApiError(e);
        // Sign-in failures are shown by the door's onAuthFailure, which also leaves the screen.
        if (!error.isAuth && !opts.inline) notify(error.display, 'error');
        return error.display;
      }
      await after?.();
      if (success) {
        const undo = success.undo;
        notify(
          success.message,
          'success',
          undo && {
            action: {
              label: MESSAGES.undo,
              run: async () => {
                try {
                  await undo.run();
                } catch (e) {
                  const error = toApiError(e);
                  if (!error.isAuth) notify(undo.failure, 'error');
                  return;
                }
                await after?.();
                notify(undo.done, 'success');
              },
            },
          },
        );
      }
      return null;
    },
    [notify],
  );
}

/** The notices of one kind of list item: `noun` as a sentence starts it ('Project', 'API key'). */
export function doneMessages(noun: string) {
  return {
    created: (name: string) => `${noun} "${name}" created.`,
    renamed: (name: string) => `${noun} renamed to "${name}".`,
    removed: `${noun} removed.`,
    restored: `${noun} restored.`,
    restoreFailed: `Failed to restore ${noun.toLowerCase()}. Please try again.`,
    removedMany: (n: number) => (n === 1 ? `${noun} removed.` : `${n} ${noun.toLowerCase()}s removed.`),
    restoredMany: (n: number) => (n === 1 ? `${noun} restored.` : `${n} ${noun.toLowerCase()}s restored.`),
  };
}

/**
 * Removes several items of one kind with one notice and one Undo for all: the API removes one at a time, so they go in
 * turn; a failure stops there (the ones already removed stay removed, the list is read again) and is returned.
 */
export function useRemoveMany(
  noun: string,
  removeCall: (id: string, active: 0 | 1) => Promise<unknown>,
  reload: () => Promise<void>,
): (ids: string[]) => Promise<string | null> {
  const act = useAct();
  const notify = useNotify();
  const done = useMemo(() => doneMessages(noun), [noun]);
  return useCallback(
    async (ids: string[]) => {
      const removed: string[] = [];
      const failed = await act(
        null,
        async () => {
          for (const id of ids) {
            await removeCall(id, 0);
            removed.push(id);
          }
        },
        reload,
        {
          message: done.removedMany(ids.length),
          undo: {
            run: async () => {
              for (const id of removed) await removeCall(id, 1);
            },
            done: done.restoredMany(ids.length),
            failure: done.restoreFailed,
          },
        },
      );
      if (failed && removed.length > 0) {
        await reload();
        notify(done.removedMany(removed.length), 'success');
      }
      return failed;
    },
    [act, notify, removeCall, reload, done],
  );
}
