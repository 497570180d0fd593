// After the browser tests: drop the run's own PostgreSQL database, if it made one.
import { execFileSync } from 'node:child_process';

export default function teardown(): void {
  const url = process.env.PORTAL_E2E_DATABASE_URL;
  if (!url) return;
  const u = new URL(url);
  try {
    execFileSync('dropdb', ['--if-exists', '--force', '-h', u.hostname, '-p', u.port || '5432', '-U', u.username || 'postgres', u.pathname.slice(1)], { stdio: 'ignore', timeout: 20_000 });
  } catch {}
}
