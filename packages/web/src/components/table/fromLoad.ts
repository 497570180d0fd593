// What a table takes from the core hook that loads its rows, the same on every page: whether they are loading, the
// failure (SPEC's message where the page names one) with Retry; and on the project's lists, which page on the server
// and show each row's id, the paging and the ids too.
import { loadFailure } from '@portal/core';
import type { ListPaging } from '@portal/core/react';

interface Load<D> {
  data: D | undefined;
  error: unknown;
  loading: boolean;
  reload(): Promise<void>;
}

export function fromLoad<D>(load: Load<D>, failure?: string) {
  return { loading: load.loading, error: loadFailure(load.error, failure), onRetry: () => void load.reload() };
}

/** A row's id, which keys it and shows in the ID column. */
export const stampOf = (row: { stamp: string }) => row.stamp;

/** A list of the project's (or the client's projects): its rows keyed and shown by id, paged on the server. */
export function fromList<D extends { next?: string | null }>(load: Load<D>, paging: ListPaging, failure?: string) {
  return { ...fromLoad(load, failure), paging: { of: paging, next: load.data?.next }, rowKey: stampOf, idOf: stampOf };
}
