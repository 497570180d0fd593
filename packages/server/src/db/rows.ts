// Row builders: the columns a new row starts with, shared by the routes, billing and the test kit.
import type { Insertable } from 'kysely';
import type { RunTable } from './schema';

/** What a new run must be told; every other column may be given and otherwise starts as a Pending run's. */
export type NewRun = Pick<Insertable<RunTable>, 'stamp' | 'bucket' | 'rend' | 'name' | 'function' | 'inputs' | 'created_at'> &
  Partial<Insertable<RunTable>>;

/** A new request's row: Pending, active, no file, model, fit, quote or result unless told. */
export const newRunRow = (run: NewRun): Insertable<RunTable> => ({
  pile: null,
  fit: null,
  quote: null,
  model: null,
  desc: '',
  state: 'Pending',
  message: '',
  result_key: null,
  active: 1,
  ...run,
});
