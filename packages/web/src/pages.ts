// Which file each screen comes in, and the preload of the first page's files (src/preload.ts runs it first thing).
import type { ComponentType } from 'react';
import { matchScreen, type ScreenId } from '@portal/core';
import { tokenStore } from './lib/session';

const hasToken = () => !!tokenStore.get();

export type PageId = Exclude<ScreenId, 'login'>;
export type PageModule = { default: ComponentType };

const done = new WeakMap<() => Promise<PageModule>, PageModule>();
/** A loader that remembers what it loaded, so that `arrived` can hand it over without waiting. */
const remembered = (load: () => Promise<PageModule>) => {
  const once = () =>
    load().then((m) => {
      done.set(once, m);
      return m;
    });
  return once;
};
/** The module a loader has already loaded, if it has. */
export const arrived = (load: () => Promise<PageModule>): PageModule | undefined => done.get(load);

/** The chrome and the signed-in pages come in one file (src/signedIn.ts); the public pages each in their own. */
const signedIn = () => import('./signedIn');
export const loadShell = remembered(() => signedIn().then((m) => ({ default: m.Shell })));
const from = (name: keyof Omit<typeof import('./signedIn'), 'Shell'>) =>
  remembered(() => signedIn().then((m) => ({ default: m[name] })));

export const LOADERS: Record<PageId, () => Promise<PageModule>> = {
  signup: remembered(() => import('./routes/SignupPage')),
  forgotPassword: remembered(() => import('./routes/ForgotPasswordPage')),
  resetPassword: remembered(() => import('./routes/ResetPasswordPage')),
  account: from('AccountPage'),
  plan: from('PlanPage'),
  apikeys: from('ApiKeysPage'),
  apikeyInfo: from('ApiKeyInfoPage'),
  integrations: from('IntegrationsPage'),
  createIntegration: from('CreateIntegrationPage'),
  projects: from('ProjectsPage'),
  models: from('ModelsPage'),
  runs: from('RunsPage'),
  uploads: from('UploadsPage'),
  createFitRun: from('CreateFitRunPage'),
  createShrinkRun: from('CreateShrinkRunPage'),
  runDetails: from('RunDetailsPage'),
  quoteDetails: from('QuoteDetailsPage'),
  members: from('MembersPage'),
  audit: from('AuditPage'),
  invite: remembered(() => import('./routes/InvitePage')),
  usage: from('UsagePage'),
};

/**
 * The first page's chunk is fetched together with the chrome's, not after it: otherwise the page (and so its list call)
 * would wait for the chrome's chunk to arrive and render first. Import promises are shared, so React.lazy gets the same one.
 */
export function preloadFirstPage(pathname: string): void {
  let match: ReturnType<typeof matchScreen>;
  try {
    match = matchScreen(pathname);
  } catch {
    return; // a malformed escape in the address: no screen to preload
  }
  if (!match || match.screen.id === 'login') return;
  const fail = (e: unknown) => console.warn('Preloading the first page failed; it loads on render.', e);
  if (match.screen.auth) {
    loadShell().catch(fail);
    // The API client's schemas: the page's first calls need them, and they would otherwise be asked for only then.
    if (hasToken()) import('./lib/api').catch(fail);
  }
  LOADERS[match.screen.id as PageId]().catch(fail);
}

