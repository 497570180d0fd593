// The spine of every list hook (useEntityList: load, rename, remove and their notices), what makes a noun's reads
// old, and the page a list hook may be asked for.
import { useCallback, useEffect, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Client, ListOrder } from '../contract';
import type { ApiClient } from '../client';
import { checkTitle } from '../rules';
import { doneMessages, useAct, useRemoveMany, type ActOptions, type ListActions } from './actions';
import { useApi } from './context';
import { useLoad, type Loaded, type UseLoadOptions } from './useLoad';
import type { ListPaging } from './pager';
import { callKey, invalidateNoun, renameEverywhere, type CallKey, type Noun } from '../query';

/** What a list screen's rows are and how one is renamed and removed: one constant per noun. */
export interface EntityListSpec<P extends Record<string, string | undefined>, D, R = D> {
  /** The noun of the notices ('Project' gives 'Project removed.') and of the reads a change to one makes old. */
  noun: Noun;
  /** Whether a removal's notice offers Undo (the remove call with active=1); keys do not (their tokens are revoked). */
  restorable: boolean;
  /** The cache key of the read for `params` (the call and what it is sent with). */
  key(params: P): CallKey;
  /** Reads the call's answer; it is read again when any parameter changes. */
  load(api: ApiClient, params: P, signal: AbortSignal): Promise<R>;
  /** The screen's data from the answer held (the cache holds the answer as the call gave it, shared by other screens). */
  select?(raw: R, params: P): D;
  /** The list's failure text and polling (rows that change on the server). */
  options?: UseLoadOptions<D>;
  rename(api: ApiClient, id: string, name: string): Promise<unknown>;
  /** The API's remove call: active 0 removes, 1 restores. */
  remove(api: ApiClient, id: string, active: 0 | 1): Promise<unknown>;
}

/** The page before, shown while the next arrives, offers no Next of its own (TanStack Query's paginated queries). */
function placeholderPage<D>(read: Loaded<D>): Loaded<D> {
  return read.placeholder && (read.data as Next | undefined)?.next ? { ...read, data: { ...read.data, next: null } as D } : read;
}

/**
 * The spine of every list hook: loads the list for `params` (again when one changes) and offers rename and remove
 * with their notices, the title rule checked before rename is sent.
 */
export function useEntityList<P extends Record<string, string | undefined>, D, R = D>(
  spec: EntityListSpec<P, D, R>,
  params: P,
  paging?: ListPaging,
): Loaded<D> & ListActions {
  const api = useApi();
  const act = useAct();
  const queryClient = useQueryClient();
  const paramsKey = JSON.stringify(params);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the parameters by value, not by the object of each render
  const select = useMemo(() => (spec.select ? (raw: R) => spec.select!(raw, params) : undefined), [spec, paramsKey]);
  const read = useLoad<R, D>(spec.key(params), (signal) => spec.load(api, params, signal), { ...spec.options, select, paged: true });
  const loaded = useMemo(() => placeholderPage(read), [read]);
  // A change to one of these makes every read that shows it old: the ones on screen (this list among them) are
  // read again before the notice, the rest when next shown.
  const noun = spec.noun;
  const reload = useChanged(noun);
  // The screen's paging learns from each answer whether the list is long.
  const next = (loaded.data as Next | undefined)?.next;
  const seen = paging?.seen;
  useEffect(() => seen?.(next), [seen, next]);
  const done = useMemo(() => doneMessages(spec.noun), [spec.noun]);
  const rename = useCallback(
    (id: string, name: string, opts?: ActOptions) =>
      act(
        checkTitle(name, 'rename'),
        async () => {
          // Shown at once on every screen that shows it; put back as it was when the server refuses.
          const undo = await renameEverywhere(queryClient, noun, id, name.trim());
          try {
            await spec.rename(api, id, name.trim());
          } catch (e) {
            undo();
            throw e;
          }
        },
        reload,
        { message: done.renamed(name.trim()) },
        opts,
      ),
    [act, api, spec, reload, done, queryClient, noun],
  );
  const remove = useCallback(
    (id: string, opts?: ActOptions) =>
      act(
        null,
        () => spec.remove(api, id, 0),
        reload,
        {
          message: done.removed,
          undo: spec.restorable ? { run: () => spec.remove(api, id, 1), done: done.restored, failure: done.restoreFailed } : undefined,
        },
        opts,
      ),
    [act, api, spec, reload, done],
  );
  const removeCall = useCallback((id: string, active: 0 | 1) => spec.remove(api, id, active), [api, spec]);
  const removeMany = useRemoveMany(spec.noun, removeCall, reload);
  return spec.restorable ? { ...loaded, rename, remove, removeMany } : { ...loaded, rename, remove };
}

/** Makes every read that shows `noun` old (invalidateNoun): what a list's create, rename and remove run after the call. */
export function useChanged(noun: Noun): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => invalidateNoun(queryClient, noun), [queryClient, noun]);
}

/** Makes the permission list old (the clients the user has): after joining or leaving one. */
export function useClientsChanged(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: callKey('permissions') }), [queryClient]);
}

export const byStamp = (list: readonly Client[], stamp: string) => list.find((c) => c.stamp === stamp);

/**
 * A page a list hook may ask for: `limit` rows after `cursor` (core's `usePager` gives one), or a screen's
 * `useListPaging`, which the hook also tells whether the list is long.
 */
export interface PageRequest {
  limit: number;
  cursor?: string;
  /** The project list only: its order and a part of the names to find (useListPaging's `searched`). */
  order?: ListOrder;
  q?: string;
}
export type PageAsked = PageRequest | ListPaging | undefined;
export const pagingOf = (page: PageAsked): ListPaging | undefined => (page && 'seen' in page ? page : undefined);
/** The page as the spine's parameters (strings, so a new page loads again), and back as the call's query. */
export type PageParams = { limit: string | undefined; cursor: string | undefined; order: string | undefined; q: string | undefined };
export const pageParams = (asked: PageAsked): PageParams => {
  const page = pagingOf(asked)?.page ?? (asked as PageRequest | undefined);
  return { limit: page ? String(page.limit) : undefined, cursor: page?.cursor, order: page?.order, q: page?.q };
};
export const pageQuery = ({ limit, cursor, order, q }: PageParams) =>
  limit
    ? { limit: Number(limit), ...(cursor ? { cursor } : {}), ...(order ? { order: order as ListOrder } : {}), ...(q ? { q } : {}) }
    : {};
/** `next` beside a paged list's rows: the cursor of the page after (null on the last); absent for a whole list. */
export type Next = { next?: string | null };
export const nextOf = (envelope: Next): Next => (envelope.next === undefined ? {} : { next: envelope.next });
