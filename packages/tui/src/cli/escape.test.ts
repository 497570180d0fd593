import { describe, expect, it } from 'vitest';
import { printable } from '@portal/core';
import { addMember, rows, seedEmptyProject, seedProject, withTestApi } from '@portal/testkit/api';
import { portal, signedIn } from '../../test/cli';
import { HOSTILE_TEXTS, TERMINAL_RAW } from '../../test/hostile';

const server = withTestApi({ worker: false });

// Stored before the text rule, or written around the API: what another member's terminal must not act on.
const COMPANY = 'Acme\x1b]0;owned\x07\x1b[2J Ltd';
const PROJECT = 'invoice\u202egpj.exe\r\nfake: line';
const EMAIL = 'eve\x1b[31m@example.com';
// Tabs separate piped columns and LF ends lines: everything else of C0, C1 and bidi must arrive escaped.
const RAW = TERMINAL_RAW;

describe('what the CLI prints from the server is escaped', { timeout: 60_000 }, () => {
  it('tables, fields, notices and --json of accounts, projects, members, invites and the audit log', async () => {
    const db = rows(server);
    const client = server.user.client;
    await db.updateTable('clients').set({ name: COMPANY }).where('stamp', '=', client).execute();
    await seedEmptyProject(server, { name: PROJECT });
    // A project whose upload, request and model carry the hostile names too (written around the API's text rule).
    const seeded = await seedProject(server);
    const project = seeded.project.stamp;
    await db.updateTable('rends').set({ name: HOSTILE_TEXTS[2] }).where('stamp', '=', seeded.upload.stamp).execute();
    await db.updateTable('runs').set({ name: HOSTILE_TEXTS[1], message: HOSTILE_TEXTS[6] }).where('stamp', '=', seeded.run.stamp).execute();
    await db.updateTable('models').set({ name: HOSTILE_TEXTS[3] }).where('stamp', '=', seeded.model.stamp).execute();
    const eve = await server.newUser({ label: 'eve' });
    const eveStamp = await addMember(server, client, eve);
    await db.updateTable('users').set({ email: EMAIL }).where('stamp', '=', eveStamp).execute();
    await db
      .insertInto('invites')
      .values({
        stamp: 'v_hostile',
        client,
        email: 'x\u202e@example.com',
        role: 'member',
        token_hash: 'h'.repeat(64),
        invited_by: (await db.selectFrom('users').select('stamp').where('username', '=', server.user.username).executeTakeFirstOrThrow())
          .stamp,
        created_at: Math.floor(Date.now() / 1000),
        expires_at: Math.floor(Date.now() / 1000) + 3600,
        used_at: null,
        used_by: null,
        withdrawn_at: null,
      })
      .execute();
    await db
      .insertInto('audit')
      .values({
        client,
        at: Math.floor(Date.now() / 1000),
        actor_stamp: eveStamp,
        actor_email: EMAIL,
        action: 'member.invite',
        target: PROJECT,
        detail: '\x9b2J',
      })
      .execute();

    const store = signedIn(server);
    const commands = [
      ['accounts', 'list'],
      ['projects', 'list'],
      ['members', 'list'],
      ['invites', 'list'],
      ['audit'],
      ['whoami'],
      ['uploads', 'list', '--project', project],
      ['runs', 'list', '--project', project],
      ['runs', 'show', seeded.run.stamp],
      ['models', 'list', '--project', project],
      ['keys', 'list'],
      ['integrations', 'list'],
    ];
    for (const tty of [true, false])
      for (const args of commands) {
        const r = await portal(args, { store, tty });
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(RAW);
      }
    expect((await portal(['accounts', 'list'], { store, tty: true })).stdout).toContain(printable(COMPANY));
    expect((await portal(['projects', 'list'], { store })).stdout).toContain('invoice\\u202egpj.exe\\r\\nfake: line');
    expect((await portal(['members', 'list'], { store })).stdout).toContain('eve\\x1b[31m@example.com');

    // --json: the same values, escaped as JSON (C1 and bidi characters too, which JSON.stringify leaves raw).
    for (const args of commands) {
      const r = await portal([...args, '--json'], { store });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(RAW);
      JSON.parse(r.stdout);
    }
    const audit = JSON.parse((await portal(['audit', '--json'], { store })).stdout);
    expect(audit[0]).toMatchObject({ target: PROJECT, detail: '\x9b2J', actor: { email: EMAIL } });
    // --jq prints strings raw, as gh does: escaped all the same.
    const jq = await portal(['projects', 'list', '--jq', '.[].name'], { store });
    expect(jq.stdout).not.toMatch(RAW);
    expect(jq.stdout).toContain('invoice\\u202egpj.exe');
  });

  it('an error message from the server is escaped too', async () => {
    const store = signedIn(server);
    const r = await portal(['projects', 'create', '--name', 'Quarter\x1b[2J'], { store });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(RAW);
  });
});
