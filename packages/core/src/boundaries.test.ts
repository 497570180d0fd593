import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
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

  // In a Node process of its own: the test files that run before this one in the same worker may have installed a DOM
  // or loaded the entry already.
  it('the main entry loads without a DOM, starts no timer and holds no group of calls and no entity schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'core-entry-'));
    try {
      await build({
        entryPoints: [join(src, 'index.ts')],
        outfile: join(dir, 'core.mjs'),
        bundle: true,
        format: 'esm',
        // Resolved as a web page would (papaparse's browser build leaves Node's stream out); run by Node, with no DOM.
        platform: 'browser',
        logLevel: 'silent',
      });
      const probe = `
        const started = [];
        for (const name of ['setTimeout', 'setInterval', 'setImmediate']) {
          const real = globalThis[name];
          globalThis[name] = (...a) => (started.push(name), real(...a));
        }
        const core = await import('./core.mjs');
        const schemas = ['Client', 'Bucket', 'Rend', 'Run', 'Member', 'UploadPreview', 'Projection', 'SessionView', 'AccountView', 'WebhookEndpoint', 'TitleCreate', 'ErrorBody'].filter((n) => n in core);
        console.log(JSON.stringify({ exports: Object.keys(core).length, table: 'CALLS' in core, schemas, document: typeof globalThis.document, started }));`;
      writeFileSync(join(dir, 'probe.mjs'), probe);
      const out = JSON.parse(execFileSync(process.execPath, [join(dir, 'probe.mjs')], { encoding: 'utf8' }));
      expect(out.exports).toBeGreaterThan(100);
      // The whole route table is @portal/core/contract/table's: a door making a few calls loads their groups alone.
      expect(out.table).toBe(false);
      // The contract's schemas are table.ts's too: the index carries their types, and builds only the error body's.
      expect(out.schemas).toEqual(['ErrorBody']);
      expect(out.document).toBe('undefined');
      expect(out.started).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
