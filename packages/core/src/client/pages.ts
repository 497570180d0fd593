// Lists a page at a time: which envelope holds each paged list's rows, one page of it, and every page in turn.
import type { CallName, CallQuery, CallResponse, ListOrder, PageQuery } from '../contract';
import type { ApiClient, CallOptions } from './api';

/** The list calls that take `limit` and `cursor`, and the envelope that carries their `list` and `next`. */
export const PAGED_LISTS = {
  bucketList: 'bucket',
  rendList: 'rend',
  runList: 'run',
  clientModelList: 'model',
  apikeyList: 'apikey',
  integrationList: 'apikey',
} as const satisfies Partial<Record<CallName, string>>;
export type PagedList = keyof typeof PAGED_LISTS;

type Envelope<N extends PagedList> = CallResponse<N>[(typeof PAGED_LISTS)[N] & keyof CallResponse<N>];
export type PageRow<N extends PagedList> = Envelope<N> extends { list: Array<infer R> } ? R : never;

/** One page of a list: its rows, the whole answer (client, project...), and the cursor of the next page (null: last). */
export interface ListPage<N extends PagedList> {
  list: PageRow<N>[];
  next: string | null;
  answer: CallResponse<N>;
}

/**
 * The page of `limit` rows after `cursor` (the first page without one); on the project, upload, request and model
 * lists also in an `order` and narrowed to names containing `q` (the cursor of a page belongs to its order).
 */
export async function listPage<N extends PagedList>(
  api: ApiClient,
  name: N,
  query: Omit<CallQuery<N>, keyof PageQuery>,
  page: { limit: number; cursor?: string | null; order?: ListOrder; q?: string },
  opts?: CallOptions,
): Promise<ListPage<N>> {
  const paged = {
    ...query,
    limit: page.limit,
    ...(page.cursor ? { cursor: page.cursor } : {}),
    ...(page.order ? { order: page.order } : {}),
    ...(page.q?.trim() ? { q: page.q.trim() } : {}),
  } as CallQuery<N>;
  const answer = (await (api.calls[name] as (q: CallQuery<N>, o?: CallOptions) => Promise<CallResponse<N>>)(
    paged,
    opts,
  )) as CallResponse<N>;
  const envelope = (answer as Record<string, unknown>)[PAGED_LISTS[name]] as { list: PageRow<N>[]; next?: string | null };
  return { list: envelope.list, next: envelope.next ?? null, answer };
}

/** Every page of a list, `limit` rows at a time, in the list's order (for exports and scripts walking a long list). */
export async function* listPages<N extends PagedList>(
  api: ApiClient,
  name: N,
  query: Omit<CallQuery<N>, keyof PageQuery>,
  limit: number,
  opts?: CallOptions,
): AsyncGenerator<ListPage<N>> {
  let cursor: string | null = null;
  do {
    const page: ListPage<N> = await listPage(api, name, query, { limit, cursor }, opts);
    yield page;
    cursor = page.next;
  } while (cursor);
}
