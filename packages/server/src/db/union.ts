// The rows of a list statement that reads several kinds of row at once (a project with a page of its uploads, their
// files and results): a `union all` of parts, each giving every column of the union in the same order, its own
// values or a null of the column's type. The columns and their types come from db/schema.ts.
import { sql, type AliasableExpression, type ExpressionBuilder, type SelectQueryBuilder, type SelectType } from 'kysely';
import type { BoxTable, BucketTable, ClientTable, DB, ModelTable, RendTable, RunTable, UploadTable } from './schema';

type SqlType = 'text' | 'bigint' | 'integer' | 'boolean';
type SqlTypes<T> = { readonly [C in keyof T]-?: SqlType };

/**
 * The SQL type of each column of the tables the lists read (as the migrations made them). Checked against the
 * schema's tables both ways: a column added to or renamed in schema.ts does not compile until it is named here.
 */
const SQL_TYPES = {
  clients: {
    seq: 'bigint',
    stamp: 'text',
    name: 'text',
    plan: 'text',
    choice: 'text',
    active: 'integer',
    credit_total: 'bigint',
    credit_used: 'bigint',
    created_at: 'bigint',
  } satisfies SqlTypes<ClientTable>,
  buckets: {
    seq: 'bigint',
    stamp: 'text',
    client: 'text',
    name: 'text',
    active: 'integer',
    run_count: 'integer',
    rend_count: 'integer',
    created_at: 'bigint',
  } satisfies SqlTypes<BucketTable>,
  rends: {
    seq: 'bigint',
    stamp: 'text',
    bucket: 'text',
    name: 'text',
    flight: 'text',
    active: 'integer',
    created_at: 'bigint',
    run_count: 'integer',
  } satisfies SqlTypes<RendTable>,
  uploads: {
    seq: 'bigint',
    stamp: 'text',
    rend: 'text',
    name: 'text',
    state: 'text',
    checksum: 'text',
    file_name: 'text',
    size: 'bigint',
    proc: 'integer',
    cols: 'bigint',
    rows: 'bigint',
    inputs: 'bigint',
    meta_error: 'text',
    error: 'text',
    stored: 'integer',
    created_at: 'bigint',
    sealing_until: 'bigint',
    ended_at: 'bigint',
    swept_at: 'bigint',
  } satisfies SqlTypes<UploadTable>,
  boxes: {
    seq: 'bigint',
    stamp: 'text',
    rend: 'text',
    run: 'text',
    name: 'text',
    size: 'bigint',
    storage_key: 'text',
    created_at: 'bigint',
  } satisfies SqlTypes<BoxTable>,
  runs: {
    seq: 'bigint',
    stamp: 'text',
    bucket: 'text',
    rend: 'text',
    pile: 'text',
    fit: 'text',
    quote: 'text',
    model: 'text',
    name: 'text',
    desc: 'text',
    function: 'text',
    state: 'text',
    message: 'text',
    result_key: 'text',
    inputs: 'bigint',
    active: 'integer',
    created_at: 'bigint',
    started_at: 'bigint',
    finished_at: 'bigint',
    dimensions: 'integer',
    metrics: 'text',
    note: 'text',
  } satisfies SqlTypes<RunTable>,
  models: {
    seq: 'bigint',
    stamp: 'text',
    bucket: 'text',
    rend: 'text',
    run: 'text',
    name: 'text',
    desc: 'text',
    state: 'text',
    message: 'text',
    data: 'text',
    active: 'integer',
    created_at: 'bigint',
  } satisfies SqlTypes<ModelTable>,
} as const;
type Typed = keyof typeof SQL_TYPES;

/** A column of a union: its SQL type, the table column it holds if any, and its TypeScript type (`T`, never set). */
export interface UnionColumn<T> {
  readonly sqlType: SqlType;
  readonly from?: { table: Typed; column: string };
  readonly type?: T;
}

/** A union column holding `table`'s `column`: its types are the schema's. */
export const columnOf = <T extends Typed, C extends keyof DB[T] & keyof (typeof SQL_TYPES)[T] & string>(
  table: T,
  column: C,
): UnionColumn<SelectType<DB[T][C]>> => ({ sqlType: SQL_TYPES[table][column] as SqlType, from: { table, column } });

/** Union columns holding `table`'s `columns`, each by its own name. */
export const columnsOf = <T extends Typed, C extends keyof DB[T] & keyof (typeof SQL_TYPES)[T] & string>(
  table: T,
  columns: readonly C[],
): { [K in C]: UnionColumn<SelectType<DB[T][K]>> } =>
  Object.fromEntries(columns.map((c) => [c, columnOf(table, c)])) as { [K in C]: UnionColumn<SelectType<DB[T][K]>> };

/** A union column of the statement's own making (a condition, a count). */
export const ownColumn = <T>(sqlType: SqlType): UnionColumn<T> => ({ sqlType });

/** A union's columns, in the order every part gives them. */
export type UnionColumns = Record<string, UnionColumn<unknown>>;

/** A row of the union: its part's kind `k`, and every column (null where its part does not fill it). */
export type UnionRow<Cs extends UnionColumns> = { k: number } & {
  [K in keyof Cs]: (Cs[K] extends UnionColumn<infer T> ? T : never) | null;
};

/** What one part fills: some of the union's columns, each with an expression of the column's type. */
export type Fills<Cs extends UnionColumns> = {
  [K in keyof Cs]?: AliasableExpression<Cs[K] extends UnionColumn<infer T> ? T | null : never>;
};

/** Fills of the columns that hold `table`'s columns, from the rows `alias` names (each its table column). */
export function fillsFrom<Cs extends UnionColumns>(columns: Cs, table: Typed, alias: string): Fills<Cs> {
  const out: Record<string, AliasableExpression<unknown>> = {};
  for (const [name, c] of Object.entries(columns)) if (c.from?.table === table) out[name] = sql.ref(`${alias}.${c.from.column}`);
  return out as Fills<Cs>;
}

/**
 * One part of the union: the rows `from` reads, as kind `k`, each giving the union's `columns` in their order:
 * those `fill` names from the rows, a null of its type for every other.
 */
export function unionPart<D, TB extends keyof D, Cs extends UnionColumns>(
  from: SelectQueryBuilder<D, TB, object>,
  columns: Cs,
  k: number,
  fill: (eb: ExpressionBuilder<D, TB>) => Fills<Cs>,
): SelectQueryBuilder<D, TB, UnionRow<Cs>> {
  return from.select((eb) => {
    const given = fill(eb) as Record<string, AliasableExpression<unknown> | undefined>;
    return [sql.lit(k).as('k'), ...Object.entries(columns).map(([name, c]) => (given[name] ?? sql`null::${sql.raw(c.sqlType)}`).as(name))];
  }) as unknown as SelectQueryBuilder<D, TB, UnionRow<Cs>>;
}
