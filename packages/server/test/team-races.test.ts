// Team changes under concurrency: owners racing each other (two API processes on PostgreSQL, one on the embedded
// database), invitations that outlive their sender's role, concurrent invitations, and the database's own owner rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { ERROR_CODES, TEAM_MESSAGES } from '@portal/core';
import { call, dbKinds, mailTo, mailsTo, signup, startPeer, startServer, type TestServer } from './harness';
import { runAdmin } from '../src/admin';
import { newId, now } from '../src/ids';
import type { DB } from '../src/db/schema';

const kinds = await dbKinds();
type User = Awaited<ReturnType<typeof signup>>;
const ROUNDS = 4;

/** A fresh client whose members are these users with these roles, written as accepted invitations would leave it. */
async function clientOf(db: Kysely<DB>, members: Array<[User, 'owner' | 'member']>) {
  const client = newId('c_');
  const t = now();
  await db
    .insertInto('clients')
    .values({
      stamp: client,
      name: 'Race Client',
      plan: 'Individual',
      choice: 'Cloud',
      active: 1,
      credit_total: 0,
      credit_used: 0,
      created_at: t,
    })
    .execute();
  await db
    .insertInto('permissions')
    .values(members.map(([u, role]) => ({ user_stamp: u.user, client_stamp: client, created_at: t, role })))
    .execute();
  return client;
}

const roles = async (db: Kysely<DB>, client: string) =>
  (await db.selectFrom('permissions').select(['user_stamp', 'role']).where('client_stamp', '=', client).execute()).map((r) => r.role);

describe.each(kinds)('team races on the %s database', (kind) => {
  let a: TestServer;
  /** The second API process on PostgreSQL; the same process on the embedded database, which belongs to one. */
  let b: TestServer;
  let ann: User;
  let ben: User;
  let db: Kysely<DB>;

  beforeAll(async () => {
    a = await startServer(kind);
    b = kind === 'postgres' ? await startPeer(a) : a;
    db = a.built.services.db;
    ann = await signup(a.url, 'ann');
    ben = await signup(a.url, 'ben');
  });
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
  });

  /** Runs the two calls at once, ROUNDS times on fresh two-owner clients; each round keeps an owner and one call wins. */
  async function race(first: (client: string) => Promise<{ status: number }>, second: (client: string) => Promise<{ status: number }>) {
    for (let round = 0; round < ROUNDS; round++) {
      const client = await clientOf(db, [
        [ann, 'owner'],
        [ben, 'owner'],
      ]);
      const answers = await Promise.all([first(client), second(client)]);
      const statuses = answers.map((r) => r.status);
      expect(
        statuses.filter((s) => s === 200),
        `round ${round}: ${JSON.stringify(answers)}`,
      ).toHaveLength(1);
      expect(statuses.filter((s) => s !== 200).every((s) => s === 403 || s === 409)).toBe(true);
      expect(await roles(db, client)).toContain('owner');
    }
  }

  it('two owners removing each other at once: one wins, the client keeps an owner', async () => {
    await race(
      (client) => call(a.url, 'memberRemove', { token: ann.token, body: { client, user: ben.user } }),
      (client) => call(b.url, 'memberRemove', { token: ben.token, body: { client, user: ann.user } }),
    );
  });

  it('one owner demoting while the other removes: one wins, the client keeps an owner', async () => {
    await race(
      (client) => call(a.url, 'memberRole', { token: ann.token, body: { client, user: ben.user, role: 'member' } }),
      (client) => call(b.url, 'memberRemove', { token: ben.token, body: { client, user: ann.user } }),
    );
  });

  it('two owners demoting each other, or both leaving, at once: one wins', async () => {
    await race(
      (client) => call(a.url, 'memberRole', { token: ann.token, body: { client, user: ben.user, role: 'member' } }),
      (client) => call(b.url, 'memberRole', { token: ben.token, body: { client, user: ann.user, role: 'member' } }),
    );
    await race(
      (client) => call(a.url, 'memberRemove', { token: ann.token, body: { client, user: ann.user } }),
      (client) => call(b.url, 'memberRemove', { token: ben.token, body: { client, user: ben.user } }),
    );
  });

  it('six invitations to one address sent at once leave one pending, and only its link works', async () => {
    const client = await clientOf(db, [[ann, 'owner']]);
    const to = `kate${newId().toLowerCase()}@example.com`;
    // The same address six ways: case, and a Kelvin sign (U+212A) for its k, which the normal form reads as k.
    const spellings = [to, to.toUpperCase(), `\u212A${to.slice(1)}`, to, `K${to.slice(1)}`, `\u212A${to.slice(1).toUpperCase()}`];
    const answers = await Promise.all(
      spellings.map((email, i) =>
        call(i % 2 ? b.url : a.url, 'inviteCreate', { token: ann.token, body: { client, email, role: 'member' } }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const pending = await call(a.url, 'inviteList', { token: ann.token, query: { client } });
    expect(pending.body.invite.list).toHaveLength(1);
    const rows = await db.selectFrom('invites').select('withdrawn_at').where('client', '=', client).execute();
    expect(rows.filter((r) => r.withdrawn_at === null)).toHaveLength(1);
  });

  describe('an invitation is only as good as its sender', () => {
    /** Ann invites her second account as owner, then `change` happens to Ann; the link must no longer work. */
    async function outlives(change: (client: string) => Promise<unknown>) {
      const second = await signup(a.url, 'annalt');
      const client = await clientOf(db, [
        [ann, 'owner'],
        [ben, 'owner'],
      ]);
      const sent = await call(a.url, 'inviteCreate', { token: ann.token, body: { client, email: second.email, role: 'owner' } });
      expect(sent.status).toBe(200);
      const mail = await mailTo(a.dataDir, second.email);
      const token = decodeURIComponent(/\/invite\?token=(\S+)/.exec(mail)![1]);
      await change(client);
      const accepted = await call(b.url, 'inviteAccept', { token: second.token, body: { token } });
      expect(accepted.status).toBe(401);
      expect(accepted.body.error).toEqual({ code: ERROR_CODES.inviteInvalid, message: TEAM_MESSAGES.inviteUsed });
      expect((await call(a.url, 'memberList', { token: second.token, query: { client } })).status).toBe(403);
      return client;
    }

    it('removed by another owner', async () => {
      const client = await outlives((c) => call(b.url, 'memberRemove', { token: ben.token, body: { client: c, user: ann.user } }));
      const withdrawn = await db
        .selectFrom('audit')
        .select(['action', 'detail'])
        .where('client', '=', client)
        .where('action', '=', 'member.invite.withdraw')
        .execute();
      expect(withdrawn).toEqual([{ action: 'member.invite.withdraw', detail: TEAM_MESSAGES.senderNoLongerOwner }]);
    });

    it('demoted', async () => {
      await outlives((c) => call(b.url, 'memberRole', { token: ben.token, body: { client: c, user: ann.user, role: 'member' } }));
    });

    it('left', async () => {
      await outlives((c) => call(a.url, 'memberRemove', { token: ann.token, body: { client: c, user: ann.user } }));
    });

    it('revoked by the operator', async () => {
      const ctx = { db, config: a.config, secrets: a.built.services.secrets };
      await outlives((c) => runAdmin(ctx, 'revoke', [ann.email, c]));
    });

    it('demoted in a way that did not withdraw it (stored before): accepting checks the sender again', async () => {
      await outlives((c) =>
        db.updateTable('permissions').set({ role: 'member' }).where('client_stamp', '=', c).where('user_stamp', '=', ann.user).execute(),
      );
    });

    it('a sender still an owner: the link works', async () => {
      const second = await signup(a.url, 'annok');
      const client = await clientOf(db, [[ann, 'owner']]);
      const seen = (await mailsTo(a.dataDir, second.email)).length;
      await call(a.url, 'inviteCreate', { token: ann.token, body: { client, email: second.email, role: 'owner' } });
      const token = decodeURIComponent(/\/invite\?token=(\S+)/.exec(await mailTo(a.dataDir, second.email, seen))![1]);
      const accepted = await call(b.url, 'inviteAccept', { token: second.token, body: { token } });
      expect(accepted.status).toBe(200);
      expect(accepted.body.member.role).toBe('owner');
    });
  });

  it('the database itself keeps an owner for every client with members', async () => {
    const client = await clientOf(db, [
      [ann, 'owner'],
      [ben, 'member'],
    ]);
    const only = () => db.selectFrom('permissions').where('client_stamp', '=', client).where('user_stamp', '=', ann.user);
    await expect(
      db.updateTable('permissions').set({ role: 'member' }).where('client_stamp', '=', client).where('user_stamp', '=', ann.user).execute(),
    ).rejects.toMatchObject({ constraint: 'client_keeps_owner' });
    await expect(
      db.deleteFrom('permissions').where('client_stamp', '=', client).where('user_stamp', '=', ann.user).execute(),
    ).rejects.toMatchObject({ constraint: 'client_keeps_owner' });
    expect(await only().select('role').execute()).toEqual([{ role: 'owner' }]);
    // Handing over in one transaction is fine, and so is a client left with no members at all.
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('permissions')
        .set({ role: 'member' })
        .where('client_stamp', '=', client)
        .where('user_stamp', '=', ann.user)
        .execute();
      await trx
        .updateTable('permissions')
        .set({ role: 'owner' })
        .where('client_stamp', '=', client)
        .where('user_stamp', '=', ben.user)
        .execute();
    });
    await db.deleteFrom('permissions').where('client_stamp', '=', client).execute();
    expect(await roles(db, client)).toEqual([]);
  });
});
