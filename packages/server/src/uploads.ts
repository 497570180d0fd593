// Upload groups (rends) and items: how they are read with their items, boxes and counts, and how a group's flight moves.
import type { Kysely, QueryCreator, Selectable } from 'kysely';
import type { Upload } from '@portal/core';
import type { BoxTable, DB, RendTable, UploadTable } from './db/schema';
import { run, statement } from './db/statements';
import { columnOf, fillsFrom, unionPart, type UnionColumn, type UnionColumns, type UnionRow } from './db/union';
import { inListOrder } from './paging';
import { UPLOAD_SHOWN, uploadView } from './views';

export const uploadKey = (stamp: string) => `uploads/${stamp}`;
export const NOT_UPLOADED = 'The file was not uploaded before the upload was finished.';

const FILE_READS = [...UPLOAD_SHOWN, 'seq'] as const;
type FileRead = (typeof FILE_READS)[number];

/**
 * The columns of uploads read with their files and results (the one reader of an upload with its files, for the
 * uploads list and for a single upload): an upload's own (kind 1, `p`'s rows), one of its files beside it
 * (`u_...`; none when it has no file) and its results (kind 3, sharing the upload's stamp, name and time columns).
 * An upload and its file come in one row: most uploads have one file, and each row costs both sides more than its
 * columns do (a page of 50 took 8 % less of the HTTP thread's time and 12 % less of PostgreSQL's than with the files
 * in rows of their own, bench/api's fifth round).
 */
export const UPLOAD_COLUMNS = {
  stamp: columnOf('rends', 'stamp'),
  name: columnOf('rends', 'name'),
  flight: columnOf('rends', 'flight'),
  created_at: columnOf('rends', 'created_at'),
  seq: columnOf('rends', 'seq'),
  run_count: columnOf('rends', 'run_count'),
  ...(Object.fromEntries(FILE_READS.map((c) => [`u_${c}`, columnOf('uploads', c)])) as {
    [C in FileRead as `u_${C}`]: UnionColumn<Selectable<UploadTable>[C]>;
  }),
  rend: columnOf('boxes', 'rend'),
  run: columnOf('boxes', 'run'),
  size: columnOf('boxes', 'size'),
} satisfies UnionColumns;

/** The uploads' columns `p` holds (a `with` part of uploads: one per upload, its own columns). */
export const UPLOAD_READS = ['stamp', 'name', 'flight', 'created_at', 'seq', 'run_count'] as const;
type UploadRows = { p: Pick<Selectable<RendTable>, (typeof UPLOAD_READS)[number]> };

/**
 * The parts of a statement that read the uploads in `p` with their files (kind 1) and results (kind 3), its union's
 * `columns` holding UPLOAD_COLUMNS. `first`: the statement's query creator when the files start the union (its
 * `with` written before them), `plain` the creator without the `with` for the parts after the first.
 */
export function uploadParts<Cs extends UnionColumns & typeof UPLOAD_COLUMNS>(first: object, plain: object, columns: Cs) {
  const q = plain as QueryCreator<DB & UploadRows>;
  const files = unionPart(
    (first as QueryCreator<DB & UploadRows>).selectFrom('p').leftJoin('uploads as u', 'u.rend', 'p.stamp'),
    columns,
    1,
    () => ({
      ...fillsFrom(columns, 'rends', 'p'),
      ...fillsFrom(columns, 'uploads', 'u'),
    }),
  );
  const results = unionPart(
    q.selectFrom('boxes as x').where('x.rend', 'in', (eb) => eb.selectFrom('p').select('p.stamp')),
    columns,
    3,
    (eb) => ({
      ...fillsFrom(columns, 'boxes', 'x'),
      stamp: eb.ref('x.stamp'),
      name: eb.ref('x.name'),
      created_at: eb.ref('x.created_at'),
      seq: eb.ref('x.seq'),
    }),
  );
  return { files, results };
}

type UploadRow = UnionRow<typeof UPLOAD_COLUMNS>;

/**
 * The uploads of a statement's rows (uploadParts), in the order they came, each with its view: its files and
 * results in their order, its active request count (kept on its row).
 */
export function uploadsOf(rows: UploadRow[]): {
  uploads: Array<UploadRow & { created_at: number; seq: number }>;
  view: (u: UploadRow) => Upload;
} {
  const uploads = new Map<string, UploadRow>();
  const files = new Map<string, Selectable<UploadTable>[]>();
  const results = new Map<string, Selectable<BoxTable>[]>();
  const add = <T>(of: Map<string, T[]>, key: string, value: T) => {
    const list = of.get(key);
    if (list) list.push(value);
    else of.set(key, [value]);
  };
  for (const row of rows) {
    if (row.k === 3) add(results, row.rend!, row as unknown as Selectable<BoxTable>);
    else {
      if (!uploads.has(row.stamp!)) uploads.set(row.stamp!, row);
      if (row.u_stamp !== null) add(files, row.stamp!, fileOf(row));
    }
  }
  const partsOf = <T extends { created_at: number; seq: number }>(of: Map<string, T[]>, upload: string) =>
    inListOrder(of.get(upload) ?? [], false);
  return {
    uploads: [...uploads.values()] as Array<UploadRow & { created_at: number; seq: number }>,
    view: (u) => uploadView(u as unknown as Selectable<RendTable>, partsOf(files, u.stamp!), partsOf(results, u.stamp!), u.run_count!),
  };
}

/**
 * The file a row carries (its `u_...` columns), written out: built key by key from names made per row (`u_${c}`),
 * a string made and looked up per column, it cost about 1.3 µs a row (65 µs of a page of 50's 600 µs on the HTTP
 * thread); the literal costs a few hundredths of that (bench/api's README, seventh round, quiet machine). Its type
 * names every column of FILE_READS, so one added there fails to compile until it is added here.
 */
const fileOf = (r: UploadRow): { [C in FileRead]: Selectable<UploadTable>[C] } => ({
  stamp: r.u_stamp!,
  name: r.u_name!,
  state: r.u_state!,
  checksum: r.u_checksum!,
  file_name: r.u_file_name!,
  size: r.u_size!,
  proc: r.u_proc!,
  cols: r.u_cols,
  rows: r.u_rows,
  inputs: r.u_inputs,
  meta_error: r.u_meta_error,
  error: r.u_error,
  created_at: r.u_created_at!,
  seq: r.u_seq!,
});

/** One upload as the wire shows it, with its files and results, in one statement. */
export async function uploadWithFiles(db: Kysely<DB>, stamp: string): Promise<Upload> {
  const rows = await run(
    db,
    statement('upload_one', '', (db, p: { stamp: string }) => {
      const q = db.with('p', (db) => db.selectFrom('rends').select(UPLOAD_READS).where('stamp', '=', p.stamp));
      const { files, results } = uploadParts(q, db, UPLOAD_COLUMNS);
      return files.unionAll(results);
    }),
    { stamp },
  );
  const { uploads, view } = uploadsOf(rows);
  if (!uploads.length) throw new Error(`Upload ${stamp} not found`);
  return view(uploads[0]);
}

/**
 * A finished group (flight Processing) becomes Ready once every item is Finished, or Failed once every item
 * is done and one of them Failed; items still Pending or Preparing keep it Processing.
 */
export async function settleFlight(db: Kysely<DB>, uploadStamp: string): Promise<void> {
  const upload = await db.selectFrom('rends').select(['flight']).where('stamp', '=', uploadStamp).executeTakeFirst();
  if (!upload || upload.flight !== 'Processing') return;
  const items = await db.selectFrom('uploads').select(['state']).where('rend', '=', uploadStamp).execute();
  if (items.some((i) => i.state === 'Pending' || i.state === 'Preparing')) return;
  const flight = items.length > 0 && items.every((i) => i.state === 'Finished') ? 'Ready' : 'Failed';
  await db.updateTable('rends').set({ flight }).where('stamp', '=', uploadStamp).where('flight', '=', 'Processing').execute();
}
