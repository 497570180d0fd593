// Backup and restore of the embedded default with the built `portal-server`: a backup of a running server, restored
// into a new folder, serves the same accounts, projects and uploads (downloadable), and the same sign-ins.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { uploadKey } from '../src/uploads';
import { call, fitData, freshDataDir, PASSWORD, serverRoot, sha256, signup, uploadFiles } from './harness';

const main = join(serverRoot, 'dist/main.js');
const built = existsSync(main);
if (!built && process.env.CI) throw new Error(`${main} does not exist: build the server before the tests.`);

const cli = (dataDir: string, ...args: string[]) =>
  spawnSync(process.execPath, [main, 'admin', ...args], { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8', timeout: 120_000 });

/** The built server on DATA_DIR, resolved with its URL once it says where it runs. */
function serve(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', METRICS_PORT: 'off', PORTAL_DRAIN_S: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Portal running at (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

const basic = (email: string) => `Basic ${Buffer.from(`${email}:${PASSWORD}`).toString('base64')}`;

describe.skipIf(!built)('backup and restore of the embedded default', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  // Boots built servers, backs up and restores in one scenario: longer than a test's usual minute on a loaded machine.
  it('backs up a running server; the backup restored into a new folder serves the same sign-in, projects and uploads', async () => {
    const work = await mkdtemp(join(tmpdir(), 'portal-backup-'));
    cleanup.push(() => rm(work, { recursive: true, force: true }));
    const original = await freshDataDir();
    cleanup.push(() => rm(original, { recursive: true, force: true }));
    const running = await serve(original);
    cleanup.push(async () => running.child.exitCode === null && running.child.kill('SIGKILL'));

    const A = await signup(running.url, 'backup');
    const project = (await call(running.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Kept' } })).body.bucket
      .stamp;
    const bytes = fitData(30, 2);
    const { upload: kept } = await uploadFiles(running.url, A.token, project, [{ name: 'kept.json', bytes }]);
    expect(kept.flight).toBe('Ready');

    // Taken while the server runs and holds the database: it makes the copy itself.
    const file = join(work, 'portal.backup');
    const backup = cli(original, 'backup', file);
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up the database \([\d.]+ MB\) and 1 stored file \([\d.]+ MB\) to .*portal\.backup\./);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // An ordinary gzip'd tar: the operator's tools list it.
    const listed = spawnSync('tar', ['-tzf', file], { encoding: 'utf8' });
    expect(listed.stdout.split('\n').filter(Boolean)).toEqual([
      'portal-backup.json',
      'db.tar.gz',
      'jwt-secret',
      'encryption-key',
      `files/uploads/${kept.upload.list[0].stamp}`,
    ]);
    // Made after the backup: not in it.
    await call(running.url, 'bucketCreate', { token: A.token, body: { client: A.client, name: 'Later' } });

    const restored = join(work, 'restored');
    const restore = cli(restored, 'restore', file);
    expect(restore.stderr).toBe('');
    expect(restore.stdout).toMatch(/^Restored the backup of .* \(the database and 1 stored file\) into /);
    // Only into an empty folder.
    const again = cli(restored, 'restore', file);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/is not empty: restore into an empty folder/);
    const notBackup = join(work, 'other.backup');
    await writeFile(notBackup, 'not a backup');
    const wrong = cli(join(work, 'empty'), 'restore', notBackup);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/^Could not restore .*other\.backup/);

    // The restored folder serves (in this process, to reach its store's signed links).
    const config = loadConfig(
      {},
      { dataDir: restored, port: 0, host: '127.0.0.1', logLevel: 'silent', metricsPort: null, drainS: 0, checkAnswers: true },
    );
    const app = await buildApp(config);
    cleanup.push(() => app.close());
    const url = await app.app.listen({ port: 0, host: '127.0.0.1' });

    const login = await call(url, 'login', { headers: { authorization: basic(A.email) } });
    expect(login.status).toBe(200);
    // A sign-in made before the backup still holds (the signing key came back with it).
    const projects = await call(url, 'bucketList', { token: A.token, query: { client: A.client } });
    expect(projects.status).toBe(200);
    expect(projects.body.bucket.list.map((b: { name: string }) => b.name)).toEqual(['Kept']);
    const uploads = await call(url, 'rendList', { token: login.body.token, query: { bucket: project } });
    const upload = uploads.body.rend.list[0];
    expect(upload).toMatchObject({ name: 'kept.json', flight: 'Ready' });
    const item = upload.upload.list[0];
    expect(item.file.checksum).toBe(sha256(bytes));
    const link = await app.services.storage.downloadUrl(uploadKey(item.stamp), 'kept.json', url);
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(bytes));

    // With the server stopped, the command opens the database itself.
    const exited = new Promise((r) => running.child.once('exit', r));
    running.child.kill('SIGTERM');
    await exited;
    const offline = cli(original, 'backup', join(work, 'offline.backup'));
    expect(offline.stderr).toBe('');
    expect(offline.stdout).toMatch(/^Backed up the database \([\d.]+ MB\) and 1 stored file /);
  }, 180_000);
});
