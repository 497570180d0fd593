// Operator commands: plan and choice changes show up in the API at once; grants give access; lookups by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '@portal/core/contract/table';
import { call, signup, startServer, type TestServer } from './harness';
import { AdminError, findClient, grant, listClients, listUsers, setChoice, setPlan, table } from '../src/admin';

describe('admin commands', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer('embedded', { worker: false });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('set-plan and set-choice by id or by name; bad values are refused with the allowed list', async () => {
    const db = srv.built.services.db;
    const A = await signup(srv.url, 'adm');
    const name = (await db.selectFrom('clients').select('name').where('stamp', '=', A.client).executeTakeFirstOrThrow()).name;
    expect(await setPlan(db, A.client, 'Enterprise')).toContain('Enterprise');
    expect(await setChoice(db, name.toUpperCase(), 'Premise')).toContain('Premise');
    const perms = CALLS.permissions.response.parse((await call(srv.url, 'permissions', { token: A.token })).body);
    expect(perms[0].client).toMatchObject({ plan: 'Enterprise', choice: 'Premise' });
    await expect(setPlan(db, A.client, 'Gold')).rejects.toThrow(/Individual, Enterprise/);
    await expect(setChoice(db, A.client, 'Moon')).rejects.toThrow(/Cloud, Premise, CloudPremise/);
    await expect(findClient(db, 'no such client')).rejects.toBeInstanceOf(AdminError);
  });

  it('grant makes a user a member of another client; users and clients list them', async () => {
    const db = srv.built.services.db;
    const A = await signup(srv.url, 'owner');
    const B = await signup(srv.url, 'guest');
    expect((await call(srv.url, 'bucketList', { token: B.token, query: { client: A.client } })).status).toBe(403);
    expect(await grant(db, B.email.toUpperCase(), A.client)).toContain(B.email);
    expect(await grant(db, B.email, A.client)).toContain(B.email);
    expect((await call(srv.url, 'bucketList', { token: B.token, query: { client: A.client } })).status).toBe(200);
    await expect(grant(db, 'nobody@example.com', A.client)).rejects.toThrow(/No user/);
    const users = await listUsers(db);
    expect(users.find((u) => u.email === B.email)?.clients).toHaveLength(2);
    const clients = await listClients(db);
    expect(clients.map((c) => c.id)).toContain(A.client);
    expect(table(clients)).toMatch(/^ID\s+NAME\s+PLAN\s+CHOICE\s+ACTIVE/);
  });
});
