// The embedded database's thread: named statements (parsed once, values bound) answered as wire-protocol bytes and read on this side give
// the rows PGlite's own query gives; errors keep PostgreSQL's fields; statements share the session, transactions hold it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, Kysely, sql } from 'kysely';
import { EmbeddedThread } from './embedded-thread';
import { PGliteDialect, SessionLock } from './pglite-dialect';

const ROWS = `select n, n::bigint * 1000000000 as big, n % 2 = 0 as even, 'name ''' || n || '''' as name,
  case when n = 3 then null else json_build_object('n', n, 'tags', json_build_array('a', n)) end as detail,
  n::real / 4 as quarter, now() > '2000-01-01' as later
  from generate_series(1, 120) n where n <= $1 order by n`;

describe('the embedded database thread', () => {
  let dir: string;
  let thread: EmbeddedThread;
  let db: Kysely<Record<string, never>>;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'portal-thread-'));
    thread = await EmbeddedThread.open(join(dir, 'db'));
    db = new Kysely({ dialect: new PGliteDialect(thread) });
  });
  afterAll(async () => {
    await db?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers a prepared statement with the rows and types of the same statement unprepared', async () => {
    const plain = await thread.query(ROWS, [120]);
    const prepared = await thread.query(`${ROWS}`, [120], 'rows');
    expect(prepared.rows).toHaveLength(120);
    expect(prepared.rows).toEqual(plain.rows);
    expect(prepared.rows[2]).toEqual({ n: 3, big: 3000000000, even: false, name: "name '3'", detail: null, quarter: 0.75, later: true });
    expect(prepared.rows[3]).toMatchObject({ even: true, detail: { n: 4, tags: ['a', 4] } });
    // Again, now executed from its prepared statement; and with no rows.
    expect((await thread.query<{ n: number }>(`${ROWS}`, [2], 'rows')).rows.map((r) => r.n)).toEqual([1, 2]);
    expect((await thread.query(`${ROWS}`, [0], 'rows')).rows).toEqual([]);
  });

  it("keeps PostgreSQL's error fields, and the session works after an error", async () => {
    const failing = thread.query(`select 10 / $1::int as r`, [0], 'ratio');
    await expect(failing).rejects.toMatchObject({ code: '22012', message: 'division by zero' });
    expect((await thread.query(`select 10 / $1::int as r`, [5], 'ratio')).rows).toEqual([{ r: 2 }]);
  });

  it('prepares a statement again when the session no longer holds it', async () => {
    const text = `select $1::text as said`;
    expect((await thread.query(text, ['first'], 'again')).rows).toEqual([{ said: 'first' }]);
    await thread.exec('deallocate all');
    expect((await thread.query(text, ['second'], 'again')).rows).toEqual([{ said: 'second' }]);
  });

  it('binds values as parameters: quotes, backslashes, NUL-free oddities and nulls come back as sent', async () => {
    const text = `select $1::text as t, $2::bigint as b, $3::boolean as f, $4::text as n`;
    for (const odd of ["it's", "\\'; drop table x; --", '$1 $$ $q$', 'é ✓ \u{1F600}']) {
      const { rows } = await thread.query(text, [odd, 2 ** 40, false, null], 'odd');
      expect(rows).toEqual([{ t: odd, b: 2 ** 40, f: false, n: null }]);
    }
    // A value the parameter's type refuses is PostgreSQL's error, with its fields.
    await expect(thread.query(text, ['x', 'no number', true, null], 'odd')).rejects.toMatchObject({ code: '22P02' });
  });

  it('answers statements sent at once each with its own rows, and counts the rows a write changed', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => thread.query<{ said: string }>(`select $1::text as said`, [`n${i}`], 'many')),
    );
    expect(answers.map((a) => a.rows[0].said)).toEqual(Array.from({ length: 40 }, (_, i) => `n${i}`));
    await thread.exec('create table counted (n int)');
    await thread.exec('insert into counted select generate_series(1, 7)');
    expect((await thread.query(`update counted set n = n + $1::int where n > 2`, [1], 'bump')).affectedRows).toBe(5);
  });

  it('lets statements run together while a transaction holds the session alone', async () => {
    await sql`create table seen (n int)`.execute(db);
    const order: string[] = [];
    const tx = db.transaction().execute(async (trx) => {
      await sql`insert into seen values (1)`.execute(trx);
      order.push('tx: inserted');
      // A statement sent now waits for the commit: it never sees the transaction half done.
      await new Promise((r) => setTimeout(r, 50));
      await sql`insert into seen values (2)`.execute(trx);
      order.push('tx: done');
    });
    await new Promise((r) => setTimeout(r, 10));
    const count = db.executeQuery<{ c: number }>(CompiledQuery.raw('select count(*)::int as c from seen')).then((r) => {
      order.push(`read ${r.rows[0].c}`);
    });
    await Promise.all([tx, count]);
    expect(order).toEqual(['tx: inserted', 'tx: done', 'read 2']);
  });
});

describe('the embedded session lock', () => {
  it('gives many statement turns at once, the session to one holder alone, in the order asked', async () => {
    const lock = new SessionLock();
    const got: string[] = [];
    await lock.acquire('statement');
    await lock.acquire('statement');
    const session = lock.acquire('session').then(() => got.push('session'));
    const after = lock.acquire('statement').then(() => got.push('statement after'));
    await Promise.resolve();
    expect(got).toEqual([]);
    lock.release('statement');
    lock.release('statement');
    await session;
    expect(got).toEqual(['session']);
    lock.release('session');
    await after;
    expect(got).toEqual(['session', 'statement after']);
    lock.release('statement');
    expect(await lock.alone(async () => 'alone')).toBe('alone');
  });
});
