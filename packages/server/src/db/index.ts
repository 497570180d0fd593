// Opens the database: embedded PGlite in DATA_DIR/db by default, PostgreSQL when DATABASE_URL is set; migrates it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from './pglite-dialect';
import { migrate } from './migrations';
import type { DB } from './schema';

export type { DB } from './schema';

export interface Database {
  db: Kysely<DB>;
  kind: 'embedded' | 'postgres';
  close(): Promise<void>;
}

// bigint columns hold epoch seconds, sizes and counts: all well inside a double's exact range.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openDatabase(opts: { dataDir: string; databaseUrl?: string }): Promise<Database> {
  let db: Kysely<DB>;
  let kind: Database['kind'];
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection dropped by the server (restart, failover) must not bring the process down: the pool reconnects.
    pool.on('error', (err) => console.error(`Database connection lost: ${err.message}`));
    db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    kind = 'postgres';
  } else {
    const dir = join(opts.dataDir, 'db');
    mkdirSync(opts.dataDir, { recursive: true });
    const lite = await PGlite.create(dir, { parsers: { 20: (v: string) => Number(v) } });
    db = new Kysely<DB>({ dialect: new PGliteDialect(lite) });
    kind = 'embedded';
  }
  await migrate(db);
  return { db, kind, close: () => db.destroy() };
}
