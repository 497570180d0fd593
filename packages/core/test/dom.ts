// Test support: a jsdom window for hook and component tests (core's and the web portal's), installed before React
// loads: import this first, with vitest's `node` environment.
// The workspace's vitest jsdom environment resolves a jsdom that needs Node 22; core's own jsdom runs on Node 20.
import { JSDOM } from 'jsdom';

const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/', pretendToBeVisual: true });
const g = globalThis as Record<string, unknown>;
// Node's own fetch, AbortController, timers and events stay: the hooks talk to a real server through them.
for (const key of Object.getOwnPropertyNames(dom.window)) {
  if (key in g || key.startsWith('_')) continue;
  g[key] = (dom.window as unknown as Record<string, unknown>)[key];
}
g.window = dom.window;
g.document = dom.window.document;
// Newer Node versions have their own navigator and localStorage; the browser code under test wants the window's.
g.navigator = dom.window.navigator;
g.localStorage = dom.window.localStorage;
g.IS_REACT_ACT_ENVIRONMENT = true;
