import { execFileSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { portal, signedIn } from '../../test/cli';
import { rows, withTestApi } from '@portal/testkit/api';
import type { memoryStore } from '../store';

let store: ReturnType<typeof memoryStore>;
const server = withTestApi({ worker: false });
beforeEach(async () => {
  store = signedIn(server);
});

describe('portal api, --jq, completion, help', { timeout: 30_000 }, () => {
  it('portal api: authenticated GET with query fields (fields make it a POST unless -X says), writes with a JSON body, exit 1 with the body on a non-2xx', async () => {
    const perms = await portal(['api', '/api/user/permission'], { store });
    expect(perms.code, perms.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(perms.stdout))).toContain(server.user.client);

    const made = await portal(['api', '-X', 'PUT', 'bucket/item', '-f', `client=${server.user.client}`, '-f', 'name=From the API'], {
      store,
    });
    expect(made.code, made.stderr).toBe(0);
    const stamp = JSON.parse(made.stdout).bucket.stamp;
    const list = await portal(['api', '-X', 'GET', 'bucket/item', '-F', 'active=1', '-f', `client=${server.user.client}`], { store });
    expect(JSON.parse(list.stdout).bucket.list.map((b: { stamp: string }) => b.stamp)).toEqual([stamp]);

    const bad = await portal(['api', '-X', 'PUT', '/api/bucket/item', '-f', `client=${server.user.client}`, '-f', 'name='], { store });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).error.code).toBeTruthy();
    expect(bad.stderr).toMatch(/^HTTP 400: /);

    // Not signed in to that server: nothing is sent, exit 4; a URL instead of a path is refused.
    expect((await portal(['api', '/api/user/permission', '--api', 'http://127.0.0.1:9'], { store })).code).toBe(4);
    expect((await portal(['api', 'http://elsewhere.example/api/user/permission'], { store })).code).toBe(2);
  });

  it('--jq filters the JSON of any --json command with jq (implies --json); a filter that does not compile changes nothing', async () => {
    for (const name of ['Alpha', 'Beta']) expect((await portal(['projects', 'create', '--name', name, '--json'], { store })).code).toBe(0);
    const names = await portal(['projects', 'list', '--jq', '.[].name'], { store });
    expect(names.code, names.stderr).toBe(0);
    expect(names.stdout).toBe('Alpha\nBeta\n');
    const count = await portal(['accounts', 'list', '--json', '--jq=length'], { store });
    expect(count.stdout).toBe('1\n');
    const obj = await portal(['api', '/api/user/permission', '--jq', '[.permission.list[] | .client.name]'], { store });
    expect(JSON.parse(obj.stdout)).toEqual(['Analytical Engines']);

    const broken = await portal(['projects', 'create', '--name', 'Gamma', '--jq', '.['], { store });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^--jq: .*compile error/s);
    const names2 = await rows(server).selectFrom('buckets').select('name').where('client', '=', server.user.client).execute();
    expect(names2.map((b) => b.name)).not.toContain('Gamma');
    // A filter that fails on the data: exit 1 with jq's message.
    const fails = await portal(['projects', 'list', '--jq', '.[] | keys | .foo'], { store });
    expect(fails.code).toBe(1);
    expect(fails.stderr).toMatch(/^--jq: jq: error/);
  });

  it("portal help <command...> prints that command's help; unknown commands are usage errors", async () => {
    const h = await portal(['help', 'uploads', 'push']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('Usage: portal uploads push');
    expect(h.stdout).toContain('Examples:');
    expect((await portal(['help'])).stdout).toContain('Usage: portal');
    const bad = await portal(['help', 'nothing']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown command "nothing"');
  });

  it('completion scripts come from the program: bash completes commands, verbs and options', async () => {
    const script = (await portal(['completion', 'bash'])).stdout;
    const complete = (line: string) =>
      execFileSync(
        'bash',
        ['-c', `${script}\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _portal; printf '%s\\n' "\${COMPREPLY[@]}"`],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n');
    expect(complete('portal pro')).toEqual(['projects']);
    expect(complete('portal projects re')).toEqual(['rename', 'remove']);
    expect(complete('portal uploads push --re')).toContain('--resume');
    expect(complete('portal --js')).toEqual(['--json']);
    expect((await portal(['completion', 'zsh'])).stdout).toContain('bashcompinit');
    const fish = (await portal(['completion', 'fish'])).stdout;
    expect(fish).toContain("complete -c portal -n '__fish_use_subcommand' -a projects");
    expect(fish).toContain('-a list');
    expect((await portal(['completion', 'tcsh'])).code).toBe(2);
    // Completion needs no sign-in: run with no token stored, it prints its script and asks for none.
    const signedOut = await portal(['completion', 'bash']);
    expect(signedOut.code).toBe(0);
    expect(signedOut.stdout).toContain('_portal');
    expect(signedOut.stderr).not.toContain(MESSAGES.tokenMissing);
  });
});
