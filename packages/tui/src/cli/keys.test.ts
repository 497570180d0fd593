import { beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, installCommand, pythonExample } from '@portal/core';
import { portal, signedIn } from '../../test/cli';
import { withTestApi } from '@portal/testkit/api';
import type { memoryStore } from '../store';

let store: ReturnType<typeof memoryStore>;
const server = withTestApi({ worker: false });
beforeEach(async () => {
  store = signedIn(server);
});

describe('portal keys', { timeout: 30_000 }, () => {
  it('create only while none exists, then list, info, rename and remove', async () => {
    expect((await portal(['keys', 'list'], { store })).stderr.trim()).toBe(MESSAGES.noApiKeys);
    const c = await portal(['keys', 'create', '--name', 'CI', '--json'], { store });
    expect(c.code).toBe(0);
    const key = JSON.parse(c.stdout);
    const again = await portal(['keys', 'create', '--name', 'Second'], { store });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already has an API key');

    const info = await portal(['keys', 'info', key.clue], { store, tty: true });
    expect(info.stdout).toContain(`pip install "${server.url}/api/pack/${key.pack.linux64}"`);
    expect(info.stdout).toContain(key.token);
    expect(info.stdout).toContain('Python example:');
    const infoJson = JSON.parse((await portal(['keys', 'info', key.clue, '--json'], { store })).stdout);
    expect(infoJson.token).toBe(key.token);
    expect(infoJson.installer).toBe(installCommand(server.url, key.pack.linux64));
    expect(infoJson.example).toBe(pythonExample(server.url, key.token, server.user.client));

    expect((await portal(['keys', 'rename', key.clue, '--name', 'Prod'], { store })).code).toBe(0);
    expect((await portal(['keys', 'list'], { store })).stdout).toMatch(/^Prod\t/);
    expect((await portal(['keys', 'remove', key.clue, '--yes'], { store })).code).toBe(0);
    expect((await portal(['keys', 'list', '--json'], { store })).stdout.trim()).toBe('[]');
    expect((await portal(['keys', 'info', 'nope'], { store })).code).toBe(1);
  });

  it('a failing create shows SPEC message', async () => {
    server.failing.apikeyCreate = 500;
    const r = await portal(['keys', 'create', '--name', 'CI'], { store });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(MESSAGES.createApiKey);
    expect(server.calls).toContain('apikeyCreate');
    expect((await portal(['keys', 'list', '--json'], { store })).stdout.trim()).toBe('[]');
  });
});

describe('portal integrations', { timeout: 30_000 }, () => {
  it('creates from --token-stdin, lists masked, renames and removes', async () => {
    const c = await portal(['integrations', 'create', '--name', 'OpenAI prod', '--token-stdin', '--json'], {
      store,
      stdin: 'sk-secret-abcd\n',
    });
    expect(c.code).toBe(0);
    const k = JSON.parse(c.stdout);
    expect(k.service).toBe('OpenAI');
    const list = await portal(['integrations', 'list'], { store });
    expect(list.stdout).toContain('OpenAI prod');
    expect(list.stdout).not.toContain('sk-secret');
    expect((await portal(['integrations', 'rename', k.clue, '--name', 'Renamed'], { store })).code).toBe(0);
    expect((await portal(['integrations', 'list'], { store })).stdout).toMatch(/^Renamed\t/);
    expect((await portal(['integrations', 'rename', 'nope', '--name', 'X'], { store })).stderr.trim()).toBe(MESSAGES.integrationNotFound);
    expect((await portal(['integrations', 'remove', k.clue, '--yes'], { store })).code).toBe(0);
    expect((await portal(['integrations', 'list', '--json'], { store })).stdout.trim()).toBe('[]');
  });

  it('an empty token gets the rule message; a missing one names the flag', async () => {
    const empty = await portal(['integrations', 'create', '--name', 'X', '--token-stdin'], { store, stdin: '' });
    expect(empty.code).toBe(1);
    expect(empty.stderr.trim()).toBe(MESSAGES.integrationToken);
    const missing = await portal(['integrations', 'create', '--name', 'X'], { store });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--token-stdin is required');
  });
});
