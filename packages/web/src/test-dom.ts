// Component tests: a jsdom window installed before React loads (import first, with `@vitest-environment node`).
// The workspace's vitest jsdom environment resolves a jsdom that needs Node 22; this package's jsdom runs on Node 20.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/', pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
for (const key of Object.getOwnPropertyNames(dom.window)) {
  if (key in g || key.startsWith('_')) continue;
  g[key] = (dom.window as unknown as Record<string, unknown>)[key];
}
g.window = dom.window;
g.document = dom.window.document;
g.navigator = dom.window.navigator;
g.localStorage = dom.window.localStorage;
g.IS_REACT_ACT_ENVIRONMENT = true;
