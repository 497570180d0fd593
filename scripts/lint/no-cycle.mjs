// An ESLint rule that refuses import cycles: a module that, through the modules it imports (type imports included:
// a cycle through a type hub is still a knot), comes back to itself. The workspace's own packages resolve through
// their package.json exports; anything from node_modules is a leaf. No dependency: the graph is read from the files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.tsx'];

/** `@portal/x` and `@portal/x/sub` to files, from each workspace package's exports. */
const workspace = (() => {
  const map = new Map();
  const dir = join(root, 'packages');
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const file = join(dir, name, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    const exports = typeof pkg.exports === 'string' ? { '.': pkg.exports } : (pkg.exports ?? {});
    for (const [sub, target] of Object.entries(exports)) {
      const to = typeof target === 'string' ? target : (target?.import ?? target?.default);
      if (typeof to === 'string' && !to.includes('*')) map.set(sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`, join(dir, name, to));
    }
  }
  return map;
})();

const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolveSpecifier(from, spec) {
  if (spec.startsWith('.')) {
    const base = resolve(dirname(from), spec);
    for (const ext of EXTENSIONS) {
      const file = base + ext;
      if (existsSync(file) && statSync(file).isFile()) return file;
    }
    return null;
  }
  return workspace.get(spec) ?? null;
}

const importsCache = new Map();

/** The workspace files this file imports, read from its text (comments removed first). */
function importsOf(file) {
  const mtime = existsSync(file) ? statSync(file).mtimeMs : 0;
  const hit = importsCache.get(file);
  if (hit && hit.mtime === mtime) return hit.imports;
  const text = mtime
    ? readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
    : '';
  const imports = new Set();
  for (const m of text.matchAll(SPECIFIER)) {
    const to = resolveSpecifier(file, m[1] ?? m[2] ?? m[3]);
    if (to && !to.includes('/node_modules/')) imports.add(to);
  }
  importsCache.set(file, { mtime, imports: [...imports] });
  return [...imports];
}

/** A shortest chain of imports from `start` back to `target`, or null. */
function cycleThrough(target, start) {
  const seen = new Set([start]);
  const queue = [[start]];
  while (queue.length) {
    const path = queue.shift();
    for (const next of importsOf(path[path.length - 1])) {
      if (next === target) return path;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push([...path, next]);
    }
  }
  return null;
}

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses an import that leads back to the importing module.' },
    schema: [],
    messages: {
      cycle: 'Import cycle: {{chain}}. Move what both sides need (often types) into a module of its own that imports neither.',
    },
  },
  create(context) {
    const file = context.filename ?? context.getFilename();
    const check = (node) => {
      const spec = node.source && node.source.value;
      if (typeof spec !== 'string') return;
      const to = resolveSpecifier(file, spec);
      if (!to || to === file) return;
      const chain = cycleThrough(file, to);
      if (!chain) return;
      const names = [file, ...chain, file].map((f) => relative(root, f));
      context.report({ node, messageId: 'cycle', data: { chain: names.join(' -> ') } });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { 'no-cycle': noCycle } };
