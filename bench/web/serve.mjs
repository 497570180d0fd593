// The real portal server (its static files, precompressed copies and caching) over a web build folder, on a free
// port and its own data folder: what the web benches load their builds from.
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** The real portal server (its static files, precompressed copies and caching) over a build folder. */
export async function startPortal(webDist, dataDir) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'packages', 'server', 'dist', 'main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      LOG_LEVEL: 'warn',
      METRICS_PORT: '0',
      PORTAL_DRAIN_S: '0',
    },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, stop: () => child.kill('SIGTERM') };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the portal server did not start within 60 s');
}

/** A new user and client made through the API's sign-up: its token and client id. */
export async function signUp(url, tag = '') {
  const name = `bench${tag}${Date.now().toString(36)}`;
  const res = await fetch(`${url}/api/user/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${name}@example.com`, username: name, password: 'Str0ng!Pass', name: `Company ${name}` }),
  });
  const body = await res.json();
  return { token: body.token, client: body.login.client.list[0].stamp };
}
