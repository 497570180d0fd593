// Lists a page at a time: `limit` and `cursor` on every list call, `next` beside `list`; without them the whole list,
// exactly as before. Keyset pages: rows removed or added while a client walks the pages never shift them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName } from '@portal/core';
import { call, dbKinds, signup, startServer, type TestServer } from './harness';

type Row = { stamp: string };

describe.each(await dbKinds())('list pages on the %s database', (kind) => {
  let srv: TestServer;
  let A: Awaited<ReturnType<typeof signup>>;
  let project: string;

  beforeAll(async () => {
    srv = await startServer(kind, { worker: false });
    A = await signup(srv.url, 'pager');
    // Seven of each, made within the same second or so: the insertion sequence breaks the ties of created_at.
    for (let i = 1; i <= 7; i++) await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: `P${i}` } });
    project = (await call(srv.url, 'bucketList', { token: A.token, query: { client: A.client } })).body.bucket.list[0].stamp;
    for (let i = 1; i <= 7; i++) await call(srv.url, 'rendCreate', { token: A.token, body: { bucket: project, name: `U${i}` } });
    const db = srv.built.services.db;
    const t = Math.floor(Date.now() / 1000);
    for (let i = 1; i <= 7; i++) {
      const run = {
        stamp: `run_page_${i}`,
        bucket: project,
        rend: null,
        pile: null,
        fit: null,
        quote: null,
        model: null,
        name: `R${i}`,
        desc: '',
      };
      const state = i % 2 ? 'Finished' : 'Failed';
      await db
        .insertInto('runs')
        .values({ ...run, function: 'fit', state, message: '', result_key: null, inputs: 0, active: 1, created_at: t })
        .execute();
      await db
        .insertInto('models')
        .values({
          stamp: `m_page_${i}`,
          bucket: project,
          rend: null,
          run: null,
          name: `M${i}`,
          desc: '',
          state,
          message: '',
          data: null,
          active: 1,
          created_at: t,
        })
        .execute();
    }
    await db
      .insertInto('integrations')
      .values(
        Array.from({ length: 5 }, (_, i) => ({
          clue: `i_page_${i}`,
          client: A.client,
          name: `I${i}`,
          service: 'OpenAI',
          token_enc: srv.built.services.secrets.encrypt('sk-page'),
          runs: 0,
          run_at: null,
          active: 1,
          created_at: t,
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await srv?.close();
  });

  const LISTS: Array<{ name: CallName; query: () => Record<string, unknown>; rows: (body: any) => { list: Row[]; next?: string | null } }> =
    [
      { name: 'bucketList', query: () => ({ client: A.client }), rows: (b) => b.bucket },
      { name: 'rendList', query: () => ({ bucket: project }), rows: (b) => b.rend },
      { name: 'runList', query: () => ({ bucket: project }), rows: (b) => b.run },
      { name: 'clientModelList', query: () => ({ bucket: project }), rows: (b) => b.model },
      { name: 'integrationList', query: () => ({ client: A.client }), rows: (b) => b.apikey },
    ];

  const list = async (name: CallName, query: Record<string, unknown>) => {
    const r = await call(srv.url, name, { token: A.token, query });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  /** Every page of `size` rows, from the first until `next` is null. */
  async function walk(l: (typeof LISTS)[number], size: number, extra: Record<string, unknown> = {}) {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 20; pages++) {
      const page = l.rows(await list(l.name, { ...l.query(), ...extra, limit: size, cursor }));
      expect(page.list.length).toBeLessThanOrEqual(size);
      seen.push(...page.list.map((r) => r.stamp));
      if (page.next === null) return seen;
      expect(page.next).toEqual(expect.any(String));
      cursor = page.next!;
    }
    throw new Error('the pages never ended');
  }

  it.each([0, 1, 2, 3, 4])('pages of 3 walk the whole list in its order, and without a page the answer has no next (%#)', async (i) => {
    const l = LISTS[i];
    const whole = l.rows(await list(l.name, l.query()));
    expect(whole).not.toHaveProperty('next');
    expect(whole.list.length).toBeGreaterThanOrEqual(5);
    expect(await walk(l, 3)).toEqual(whole.list.map((r) => r.stamp));
    // A page as large as the list says at once that nothing follows.
    expect(l.rows(await list(l.name, { ...l.query(), limit: 200 })).next).toBeNull();
  });

  it('a row removed while the pages are walked does not shift the next page; filters keep working with pages', async () => {
    const l = LISTS[0];
    const first = l.rows(await list(l.name, { ...l.query(), limit: 2 }));
    const whole = l.rows(await list(l.name, l.query())).list.map((r) => r.stamp);
    await call(srv.url, 'bucketRemove', { token: A.token, body: { bucket: first.list[1].stamp, active: 0 } });
    const second = l.rows(await list(l.name, { ...l.query(), limit: 2, cursor: first.next }));
    expect(second.list.map((r) => r.stamp)).toEqual(whole.slice(2, 4));
    await call(srv.url, 'bucketRemove', { token: A.token, body: { bucket: first.list[1].stamp, active: 1 } });

    const failed = await walk(LISTS[2], 2, { state: 'Failed' });
    expect(failed).toEqual(['run_page_6', 'run_page_4', 'run_page_2']);
  });

  it('each list page of a client or a project takes one statement: the access (session, project or client, membership) and the page', async () => {
    const statements = async () =>
      (await srv.built.services.metrics.dbQuerySeconds.get()).values
        .filter((v) => v.metricName?.endsWith('_count'))
        .reduce((n, v) => n + v.value, 0);
    for (const l of LISTS) {
      // The first call may write the session's last use (once a minute); the second is a list page and nothing else.
      await list(l.name, { ...l.query(), limit: 3 });
      const before = await statements();
      await list(l.name, { ...l.query(), limit: 3 });
      const used = (await statements()) - before;
      expect([l.name, used]).toEqual([l.name, l.name === 'integrationList' ? 2 : 1]);
    }
  });

  it("a page of uploads carries each upload's files and results in their order, and its count of active requests", async () => {
    const db = srv.built.services.db;
    const t = Math.floor(Date.now() / 1000);
    const [u7, u6, u5] = (await list('rendList', { bucket: project, limit: 3 })).rend.list.map((r: Row) => r.stamp);
    const file = (id: string, upload: string, at: number) => ({
      stamp: id,
      rend: upload,
      name: id,
      state: 'Finished',
      checksum: 'c'.repeat(64),
      file_name: `${id}.csv`,
      size: 10,
      proc: 1,
      cols: 2,
      rows: 3,
      inputs: 6,
      meta_error: null,
      error: null,
      stored: 1,
      created_at: at,
    });
    // Inserted out of order: the later file first.
    await db
      .insertInto('uploads')
      .values([file('f_b', u7, t + 1), file('f_a', u7, t), file('f_c', u7, t + 1), file('f_d', u5, t)])
      .execute();
    const box = (id: string, upload: string, at: number) => ({
      stamp: id,
      rend: upload,
      run: null,
      name: id,
      size: 4,
      storage_key: `k/${id}`,
      created_at: at,
    });
    await db
      .insertInto('boxes')
      .values([box('x_b', u6, t + 1), box('x_a', u6, t)])
      .execute();
    const runOn = (id: string, upload: string) => ({
      stamp: id,
      bucket: project,
      rend: upload,
      pile: null,
      fit: null,
      quote: null,
      model: null,
      name: id,
      desc: '',
      function: 'generate',
      state: 'Finished',
      message: '',
      result_key: null,
      inputs: 0,
      active: 1,
      created_at: t,
    });
    await db
      .insertInto('runs')
      .values([runOn('run_on_1', u7), runOn('run_on_2', u7), runOn('run_on_3', u6)])
      .execute();
    await call(srv.url, 'runRemove', { token: A.token, body: { run: 'run_on_2', active: 0 } });

    const page = (await list('rendList', { bucket: project, limit: 3 })).rend.list;
    const shape = page.map((r: { stamp: string; runs: number; upload: { list: Row[] }; box: { list: Row[] } }) => [
      r.stamp,
      r.runs,
      r.upload.list.map((f) => f.stamp),
      r.box.list.map((x) => x.stamp),
    ]);
    expect(shape).toEqual([
      [u7, 1, ['f_a', 'f_b', 'f_c'], []],
      [u6, 1, [], ['x_a', 'x_b']],
      [u5, 0, ['f_d'], []],
    ]);
    expect(page[0].upload.list[0]).toEqual({
      stamp: 'f_a',
      name: 'f_a',
      state: 'Finished',
      file: { checksum: 'c'.repeat(64), name: 'f_a.csv', size: 10 },
      meta: { proc: 1, cols: 2, rows: 3, inputs: 6, error: null },
      error: null,
      createdAt: t,
    });
    // The whole list and a single upload's answer (its rename) say the same of each upload.
    const whole = (await list('rendList', { bucket: project })).rend.list;
    expect(whole.slice(0, 3)).toEqual(page);
    const renamed = await call(srv.url, 'rendRename', { token: A.token, body: { rend: u7, name: 'U7' } });
    expect(renamed.body.rend).toEqual(page[0]);
    // The request list names each request's upload.
    const runs = (await list('runList', { bucket: project, q: 'run_on', limit: 5 })).run.list;
    expect(runs.map((r: { stamp: string; rend: unknown }) => [r.stamp, r.rend])).toEqual([
      ['run_on_3', { stamp: u6, name: 'U6' }],
      ['run_on_1', { stamp: u7, name: 'U7' }],
    ]);
  });

  it('ids with quotes, backslashes and SQL in them are only ids: 404, and nothing else happens (the prepared statements)', async () => {
    for (const id of ["c_x' or '1'='1", "c_\\'; drop table buckets; --", 'c_$1', "b_'||pg_sleep(1)||'"]) {
      expect((await call(srv.url, 'bucketList', { token: A.token, query: { client: id } })).status).toBe(404);
      expect((await call(srv.url, 'rendList', { token: A.token, query: { bucket: id } })).status).toBe(404);
    }
    expect((await list('bucketList', { client: A.client })).bucket.list.length).toBeGreaterThanOrEqual(5);
  });

  it('a bad limit or cursor is 400 with a sentence that says what to send', async () => {
    for (const [query, message] of [
      [{ limit: 0 }, 'limit must be from 1 to 200'],
      [{ limit: 201 }, 'limit must be from 1 to 200'],
      [{ limit: 'ten' }, 'limit must be a whole number from 1 to 200'],
      [{ cursor: "1' or 1=1" }, 'cursor must be the next value of an earlier page of this list'],
      [{ cursor: '9'.repeat(40) }, 'cursor must be the next value of an earlier page of this list'],
    ] as const) {
      const r = await call(srv.url, 'rendList', { token: A.token, query: { bucket: project, ...query } });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
  });

  it('the project list pages newest first or oldest first (order), narrowed to names containing q in any case', async () => {
    const l = LISTS[0];
    const whole = l.rows(await list(l.name, l.query())).list.map((r) => r.stamp);
    // Without an order, the list's own (projects oldest first), and the cursors are as before.
    expect(await walk(l, 3, { order: 'oldest' })).toEqual(whole);
    expect(await walk(l, 3, { order: 'newest' })).toEqual([...whole].reverse());
    const newest = l.rows(await list(l.name, { ...l.query(), limit: 2, order: 'newest' }));
    expect(newest.next).toMatch(/\.n$/);
    const oldest = l.rows(await list(l.name, { ...l.query(), limit: 2 }));
    expect(oldest.next).toMatch(/^[0-9]+\.[0-9]+$/);
    // q: trimmed, any case, a substring of the name; an empty q narrows nothing.
    await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Harbour survey' } });
    await call(srv.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Old HARBOUR' } });
    const names = async (extra: Record<string, unknown>) =>
      (l.rows(await list(l.name, { ...l.query(), limit: 50, ...extra })).list as Array<Row & { name: string }>).map((r) => r.name);
    expect(await names({ q: '  harbour ', order: 'newest' })).toEqual(['Old HARBOUR', 'Harbour survey']);
    expect(await names({ q: 'HARBOUR' })).toEqual(['Harbour survey', 'Old HARBOUR']);
    expect(await names({ q: 'nothing like it' })).toEqual([]);
    expect((await names({ q: '' })).length).toBe(whole.length + 2);
    // A name with the characters of a LIKE pattern is searched as it is written.
    expect(await names({ q: '%' })).toEqual([]);
    expect(await names({ q: 'p_' })).toEqual([]);
    const found = l.rows(await list(l.name, { ...l.query(), limit: 1, q: 'harbour', order: 'newest' }));
    expect(l.rows(await list(l.name, { ...l.query(), limit: 1, q: 'harbour', order: 'newest', cursor: found.next })).list).toMatchObject([
      { name: 'Harbour survey' },
    ]);
  });

  it.each([1, 2, 3])('the upload, request and model lists take order and q too, their cursors per order (%#)', async (i) => {
    const l = LISTS[i];
    const whole = l.rows(await list(l.name, l.query())).list.map((r) => r.stamp);
    // Their own order is newest first; oldest first is the same rows turned round, cursors marked with it.
    expect(await walk(l, 3, { order: 'newest' })).toEqual(whole);
    expect(await walk(l, 3, { order: 'oldest' })).toEqual([...whole].reverse());
    const oldest = l.rows(await list(l.name, { ...l.query(), limit: 2, order: 'oldest' }));
    expect(oldest.next).toMatch(/\.o$/);
    const refused = await call(srv.url, l.name, { token: A.token, query: { ...l.query(), limit: 2, cursor: oldest.next } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('cursor must be the next value of an earlier page of this list in the order newest');
    // q: the names U1..U7, R1..R7, M1..M7; '5 ' trimmed finds the fifth, any case.
    const letter = { rendList: 'u', runList: 'r', clientModelList: 'm' }[l.name as string]!;
    const found = l.rows(await list(l.name, { ...l.query(), limit: 10, q: ` ${letter}5 ` })).list as Array<Row & { name: string }>;
    expect(found.map((r) => r.name)).toEqual([`${letter.toUpperCase()}5`]);
  });

  it('a bad order or q, one without a page, or a cursor of another order is 400 with a sentence', async () => {
    const newest = (await list('bucketList', { client: A.client, limit: 2, order: 'newest' })).bucket.next;
    const oldest = (await list('bucketList', { client: A.client, limit: 2 })).bucket.next;
    for (const [query, message] of [
      [{ limit: 5, order: 'name' }, 'order must be newest or oldest'],
      [{ limit: 5, q: 'x'.repeat(61) }, 'q must be at most 60 characters'],
      [{ q: 'x' }, 'order and q need a page: limit or cursor'],
      [{ order: 'newest' }, 'order and q need a page: limit or cursor'],
      [{ limit: 2, cursor: newest }, 'cursor must be the next value of an earlier page of this list in the order oldest'],
      [{ limit: 2, cursor: oldest, order: 'newest' }, 'cursor must be the next value of an earlier page of this list in the order newest'],
      [{ limit: 2, cursor: `${oldest}.x` }, 'cursor must be the next value of an earlier page of this list'],
    ] as const) {
      const r = await call(srv.url, 'bucketList', { token: A.token, query: { client: A.client, ...query } });
      expect([query, r.status]).toEqual([query, 400]);
      expect(r.body.error.message).toContain(message);
    }
    // Still 401 before anything else for an ended session, whatever the order or q.
    const B = await signup(srv.url, 'pager-order');
    await call(srv.url, 'logout', { token: B.token });
    const r = await call(srv.url, 'bucketList', { token: B.token, query: { client: A.client, limit: 5, order: 'newest', q: 'P' } });
    expect(r.status).toBe(401);
  });

  it('the project list reads the session in its own statement: an ended session is 401, another client 403, an unknown one 404', async () => {
    const B = await signup(srv.url, 'pager-other');
    expect((await call(srv.url, 'bucketList', { token: B.token, query: { client: A.client, limit: 2 } })).status).toBe(403);
    expect((await call(srv.url, 'bucketList', { token: B.token, query: { client: 'c_unknown' } })).status).toBe(404);
    expect((await call(srv.url, 'logout', { token: B.token })).status).toBe(200);
    const ended = await call(srv.url, 'bucketList', { token: B.token, query: { client: B.client } });
    expect(ended.status).toBe(401);
    expect(ended.body.error.message).toBe('Token expired');
    // Every list that reads the session in its own statement: 401 whatever the ids, known, someone else's or unknown.
    for (const l of LISTS) {
      for (const query of [l.query(), { client: 'c_unknown', bucket: 'b_unknown' }]) {
        const r = await call(srv.url, l.name, { token: B.token, query: { ...query, limit: 5 } });
        expect([l.name, r.status, r.body.error?.message]).toEqual([l.name, 401, 'Token expired']);
      }
    }
  });

  it('the lists that read the session in their own statement still answer members, and refuse others with 403 or 404', async () => {
    const C = await signup(srv.url, 'pager-third');
    for (const l of LISTS) {
      expect((await call(srv.url, l.name, { token: A.token, query: l.query() })).status).toBe(200);
      expect((await call(srv.url, l.name, { token: C.token, query: l.query() })).status).toBe(403);
      expect((await call(srv.url, l.name, { token: C.token, query: { client: 'c_unknown', bucket: 'b_unknown' } })).status).toBe(404);
    }
  });
});
