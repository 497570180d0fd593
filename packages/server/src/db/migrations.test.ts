// Migration 3: project rows carry their request and upload counts, backfilled from existing data and kept by triggers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, sql } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from './pglite-dialect';
import { MIGRATIONS, migrate, migrationStatus } from './migrations';
import type { DB } from './schema';

describe('project counts on the project rows', () => {
  let db: Kysely<DB>;
  beforeAll(async () => {
    db = new Kysely<DB>({ dialect: new PGliteDialect(await PGlite.create({ parsers: { 20: (v: string) => Number(v) } })) });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const counts = async (stamp: string) =>
    db.selectFrom('buckets').select(['run_count', 'rend_count']).where('stamp', '=', stamp).executeTakeFirstOrThrow();

  it('are backfilled from the data of a database made before them, then follow every insert, remove and delete', async () => {
    await migrate(db, 2);
    await sql`insert into clients (stamp, name, plan, choice, active, credit_total, credit_used, created_at) values ('c1', 'Co', 'Individual', 'Cloud', 1, 0, 0, 1)`.execute(
      db,
    );
    await sql`insert into buckets (stamp, client, name, active, created_at) values ('b1', 'c1', 'One', 1, 1), ('b2', 'c1', 'Two', 1, 2)`.execute(
      db,
    );
    await sql`insert into rends (stamp, bucket, name, flight, active, created_at) values ('r1', 'b1', 'a', 'Ready', 1, 1), ('r2', 'b1', 'b', 'Ready', 0, 1), ('r3', 'b2', 'c', 'Ready', 1, 1)`.execute(
      db,
    );
    await sql`insert into runs (stamp, bucket, name, function, state, active, created_at) values ('n1', 'b1', 'x', 'fit', 'Finished', 1, 1), ('n2', 'b1', 'y', 'fit', 'Finished', 1, 1), ('n3', 'b1', 'z', 'fit', 'Finished', 0, 1)`.execute(
      db,
    );

    await migrate(db);
    expect(await counts('b1')).toEqual({ run_count: 2, rend_count: 1 });
    expect(await counts('b2')).toEqual({ run_count: 0, rend_count: 1 });

    await db
      .insertInto('runs')
      .values({
        stamp: 'n4',
        bucket: 'b2',
        name: 'w',
        function: 'generate',
        state: 'Pending',
        message: '',
        desc: '',
        inputs: 0,
        active: 1,
        created_at: 2,
      })
      .execute();
    await db.updateTable('runs').set({ active: 0 }).where('stamp', '=', 'n1').execute();
    await db.updateTable('runs').set({ state: 'Finished' }).where('stamp', '=', 'n2').execute();
    await db.updateTable('rends').set({ active: 0 }).where('stamp', '=', 'r3').execute();
    await db.insertInto('rends').values({ stamp: 'r4', bucket: 'b1', name: 'd', flight: 'Pending', active: 1, created_at: 3 }).execute();
    await db.deleteFrom('rends').where('stamp', '=', 'r2').execute();
    expect(await counts('b1')).toEqual({ run_count: 1, rend_count: 2 });
    expect(await counts('b2')).toEqual({ run_count: 1, rend_count: 0 });

    // A write that fails rolls its count back with it.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('runs')
          .values({
            stamp: 'n5',
            bucket: 'b2',
            name: 'v',
            function: 'fit',
            state: 'Pending',
            message: '',
            desc: '',
            inputs: 0,
            active: 1,
            created_at: 3,
          })
          .execute();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await counts('b2')).toEqual({ run_count: 1, rend_count: 0 });
  });
});

describe('migrate', () => {
  let db: Kysely<DB>;
  beforeAll(async () => {
    db = new Kysely<DB>({ dialect: new PGliteDialect(await PGlite.create({ parsers: { 20: (v: string) => Number(v) } })) });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('applies every pending step in one transaction: a step that fails leaves the database as it was', async () => {
    expect(await migrate(db, 2)).toEqual([1, 2]);
    const behind = await migrationStatus(db);
    expect(behind.applied.map((m) => m.id)).toEqual([1, 2]);
    expect(behind.pending).toEqual(MIGRATIONS.filter((m) => m.id > 2).map((m) => m.id));

    const broken = [...MIGRATIONS, { id: 10_000, sql: 'alter table no_such_table add column x integer' }];
    await expect(migrate(db, Infinity, broken)).rejects.toThrow(/^Migration 10000 failed, so none was applied: /);
    expect(await migrationStatus(db)).toEqual(behind);
    // Migration 3's column is not there: its step was rolled back with the failing one.
    await expect(sql`select run_count from buckets`.execute(db)).rejects.toThrow(/run_count/);

    expect(await migrate(db)).toEqual(behind.pending);
    expect((await migrationStatus(db)).pending).toEqual([]);
    expect(await migrate(db)).toEqual([]);
  });
});

describe('migration 6: sessions and installer secrets', () => {
  it('gives every existing key its own random install secret, and makes the sessions table', async () => {
    const db = new Kysely<DB>({ dialect: new PGliteDialect(await PGlite.create({ parsers: { 20: (v: string) => Number(v) } })) });
    try {
      await migrate(db, 4);
      await sql`insert into clients (stamp, name, plan, choice, active, credit_total, credit_used, created_at) values ('c1', 'Co', 'Individual', 'Cloud', 1, 0, 0, 1)`.execute(
        db,
      );
      await sql`insert into apikeys (clue, client, name, token_enc, token_hash, created_at) values ('k1', 'c1', 'a', 'x', 'h1', 1), ('k2', 'c1', 'b', 'y', 'h2', 1)`.execute(
        db,
      );
      await migrate(db);
      const keys = await db.selectFrom('apikeys').select(['clue', 'install_secret']).orderBy('clue').execute();
      expect(keys.map((k) => k.install_secret)).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/), expect.stringMatching(/^[0-9a-f]{64}$/)]);
      expect(keys[0].install_secret).not.toBe(keys[1].install_secret);
      expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    } finally {
      await db.destroy();
    }
  });
});

describe('migration 9: roles on existing memberships', () => {
  let db: Kysely<DB>;
  beforeAll(async () => {
    db = new Kysely<DB>({ dialect: new PGliteDialect(await PGlite.create({ parsers: { 20: (v: string) => Number(v) } })) });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('makes the earliest member of each client its owner, the others members, and says so in the audit log', async () => {
    await migrate(db, 8);
    await sql`insert into users (stamp, email, username, password_hash, created_at) values
      ('u1', 'first@example.com', 'first', 'x', 1), ('u2', 'second@example.com', 'second', 'x', 1)`.execute(db);
    await sql`insert into clients (stamp, name, plan, choice, active, credit_total, credit_used, created_at) values
      ('c1', 'One', 'Individual', 'Cloud', 1, 0, 0, 1), ('c2', 'Two', 'Individual', 'Cloud', 1, 0, 0, 1)`.execute(db);
    await sql`insert into permissions (user_stamp, client_stamp, created_at) values
      ('u2', 'c1', 5), ('u1', 'c1', 10), ('u1', 'c2', 3)`.execute(db);
    await migrate(db, 9);
    const roles = await db
      .selectFrom('permissions')
      .select(['user_stamp', 'client_stamp', 'role'])
      .orderBy('client_stamp')
      .orderBy('user_stamp')
      .execute();
    expect(roles).toEqual([
      { user_stamp: 'u1', client_stamp: 'c1', role: 'member' },
      { user_stamp: 'u2', client_stamp: 'c1', role: 'owner' },
      { user_stamp: 'u1', client_stamp: 'c2', role: 'owner' },
    ]);
    const lines = await db.selectFrom('audit').select(['client', 'action', 'target', 'actor_stamp']).orderBy('client').execute();
    expect(lines).toEqual([
      { client: 'c1', action: 'member.role', target: 'second@example.com', actor_stamp: 'operator' },
      { client: 'c2', action: 'member.role', target: 'first@example.com', actor_stamp: 'operator' },
    ]);
  });
});

describe('migration 11: teams that hold and one email normal form', () => {
  it('gives ownerless clients an owner, withdraws invitations that no longer hold, and then keeps both rules', async () => {
    const db = new Kysely<DB>({ dialect: new PGliteDialect(await PGlite.create({ parsers: { 20: (v: string) => Number(v) } })) });
    try {
      await migrate(db, 10);
      await sql`insert into users (stamp, email, username, password_hash, created_at) values
        ('u1', 'ann@example.com', 'ann01', 'x', 1), ('u2', 'ben@example.com', 'ben01', 'x', 2), ('u3', 'cy@example.com', 'cy001', 'x', 3)`.execute(
        db,
      );
      await sql`insert into clients (stamp, name, plan, choice, active, credit_total, credit_used, created_at) values
        ('c1', 'One', 'Individual', 'Cloud', 1, 0, 0, 1), ('c2', 'Two', 'Individual', 'Cloud', 1, 0, 0, 1)`.execute(db);
      // c1: an owner and a demoted former owner; c2: members only (left so by a race before this migration).
      await sql`insert into permissions (user_stamp, client_stamp, created_at, role) values
        ('u1', 'c1', 1, 'owner'), ('u2', 'c1', 2, 'member'), ('u2', 'c2', 1, 'member'), ('u3', 'c2', 2, 'member')`.execute(db);
      // Three pending to one address (two spellings) from the owner, one from the demoted member.
      await sql`insert into invites (stamp, client, email, role, token_hash, invited_by, created_at, expires_at) values
        ('v1', 'c1', 'kate@example.com', 'member', 'h1', 'u1', 10, 99999999999),
        ('v2', 'c1', 'KATE@example.com', 'member', 'h2', 'u1', 20, 99999999999),
        ('v3', 'c1', '\u212Aate@example.com', 'owner', 'h3', 'u1', 30, 99999999999),
        ('v4', 'c1', 'dan@example.com', 'owner', 'h4', 'u2', 40, 99999999999)`.execute(db);
      await migrate(db);

      const pending = await db.selectFrom('invites').select('stamp').where('withdrawn_at', 'is', null).execute();
      expect(pending.map((r) => r.stamp)).toEqual(['v3']);
      const owners = await db
        .selectFrom('permissions')
        .select(['client_stamp', 'user_stamp'])
        .where('role', '=', 'owner')
        .orderBy('client_stamp')
        .execute();
      expect(owners).toEqual([
        { client_stamp: 'c1', user_stamp: 'u1' },
        { client_stamp: 'c2', user_stamp: 'u2' },
      ]);
      // From now on: one pending invitation per client and address, one account per address, an owner per client.
      const invite = sql`insert into invites (stamp, client, email, role, token_hash, invited_by, created_at, expires_at)
        values ('v5', 'c1', 'KATE@EXAMPLE.COM', 'member', 'h5', 'u1', 50, 99999999999)`;
      await expect(invite.execute(db)).rejects.toThrow(/invites_one_pending/);
      await expect(
        sql`insert into users (stamp, email, username, password_hash, created_at) values ('u4', '\uFF21NN@example.com', 'ann02', 'x', 4)`.execute(
          db,
        ),
      ).rejects.toThrow(/users_email_key/);
      await expect(sql`update permissions set role = 'member' where user_stamp = 'u1' and client_stamp = 'c1'`.execute(db)).rejects.toThrow(
        /no owner/,
      );
    } finally {
      await db.destroy();
    }
  });
});

describe("migration 27: sign-ins leave the clients' audit logs for the member's own log", () => {
  it("moves each sign-in once into the user's events and keeps the clients' other lines", async () => {
    const db = new Kysely<DB>({ dialect: new PGliteDialect(await PGlite.create({ parsers: { 20: (v: string) => Number(v) } })) });
    try {
      await migrate(db, 26);
      await sql`insert into users (stamp, email, username, password_hash, created_at) values
        ('u1', 'ann@example.com', 'ann01', 'x', 1)`.execute(db);
      // One sign-in was written once per client the member belongs to; a line of a deleted account has no user.
      await sql`insert into audit (client, at, actor_stamp, actor_email, action, target, detail) values
        ('c1', 100, 'u1', 'ann@example.com', 'signin', '', ''), ('c2', 100, 'u1', 'ann@example.com', 'signin', '', ''),
        ('c1', 200, 'gone', 'gone@example.com', 'signin', '', ''), ('c1', 300, 'u1', 'ann@example.com', 'member.join', '', '')`.execute(db);
      await migrate(db);
      const audit = await db.selectFrom('audit').select(['client', 'action']).execute();
      expect(audit).toEqual([{ client: 'c1', action: 'member.join' }]);
      const events = await db.selectFrom('user_events').select(['user_stamp', 'at', 'action']).execute();
      expect(events).toEqual([{ user_stamp: 'u1', at: 100, action: 'signin' }]);
    } finally {
      await db.destroy();
    }
  });
});
