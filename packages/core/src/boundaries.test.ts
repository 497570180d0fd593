import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The main entry runs in browsers and terminals alike: React stays in react/, Node's modules in node/.
const src = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const imports = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)(?:[^'"]*from)?\s*'([^']+)'/gm)].map((m) => m[1]);

describe('core boundaries', () => {
  const files = sources(src)
    .map((f) => relative(src, f))
    .filter((f) => !f.startsWith('testing/'));

  it('only @portal/core/react imports React', () => {
    const offenders = files.filter(
      (f) => !f.startsWith('react/') && imports(join(src, f)).some((m) => m === 'react' || m.startsWith('react/') || m === 'react-dom'),
    );
    expect(offenders).toEqual([]);
    // The check sees what it looks for.
    expect(imports(join(src, 'react/context.tsx'))).toContain('react');
  });

  it('only @portal/core/node imports Node modules', () => {
    const offenders = files.filter((f) => !f.startsWith('node/') && imports(join(src, f)).some((m) => m.startsWith('node:')));
    expect(offenders).toEqual([]);
    expect(imports(join(src, 'node/file.ts'))).toContain('node:fs');
  });

  it('the main entry loads without a DOM and starts no timer', async () => {
    const started: unknown[] = [];
    const real = { setTimeout: globalThis.setTimeout, setInterval: globalThis.setInterval };
    globalThis.setTimeout = ((...a: Parameters<typeof setTimeout>) => (started.push(a), real.setTimeout(...a))) as typeof setTimeout;
    globalThis.setInterval = ((...a: Parameters<typeof setInterval>) => (started.push(a), real.setInterval(...a))) as typeof setInterval;
    try {
      const core = await import('./index');
      expect(Object.keys(core.CALLS).length).toBeGreaterThan(30);
    } finally {
      Object.assign(globalThis, real);
    }
    expect(typeof (globalThis as Record<string, unknown>).document).toBe('undefined');
    expect(started).toEqual([]);
  });
});
