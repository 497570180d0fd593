// The embedded database's Kysely dialect: transactions own the one connection, so concurrent ones never interleave.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { freshDataDir } from './harness';
import { openDatabase, type Database } from '../src/db/index';

describe('PGlite dialect', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = await freshDataDir();
    database = await openDatabase({ dataDir: dir });
  });
  afterAll(async () => {
    await database?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('concurrent read-modify-write transactions are serialized: no update is lost', async () => {
    const db = database.db;
    await db.insertInto('settings').values({ key: 'counter', value: '0' }).execute();
    await Promise.all(
      Array.from({ length: 25 }, () =>
        db.transaction().execute(async (trx) => {
          const row = await trx.selectFrom('settings').select('value').where('key', '=', 'counter').executeTakeFirstOrThrow();
          await new Promise((r) => setTimeout(r, 1));
          await trx
            .updateTable('settings')
            .set({ value: String(Number(row.value) + 1) })
            .where('key', '=', 'counter')
            .execute();
        }),
      ),
    );
    const row = await db.selectFrom('settings').select('value').where('key', '=', 'counter').executeTakeFirstOrThrow();
    expect(row.value).toBe('25');
  });

  it('a failed transaction rolls back and the connection stays usable', async () => {
    const db = database.db;
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('settings').values({ key: 'rolled', value: 'x' }).execute();
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await db.selectFrom('settings').selectAll().where('key', '=', 'rolled').execute()).toEqual([]);
    const bad = sql`select * from no_such_table`.execute(db);
    await expect(bad).rejects.toThrow(/no_such_table/);
    expect((await sql<{ n: number }>`select 1 as n`.execute(db)).rows[0].n).toBe(1);
  });

  it('reports affected rows and bigint columns as numbers', async () => {
    const db = database.db;
    const r = await db.updateTable('settings').set({ value: '1' }).where('key', '=', 'counter').executeTakeFirst();
    expect(r.numUpdatedRows).toBe(1n);
    const n = await sql<{ n: number }>`select 9007199254740::bigint as n`.execute(db);
    expect(n.rows[0].n).toBe(9007199254740);
  });
});
