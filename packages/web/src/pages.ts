// Which file each screen comes in, and the preload of the first page's files (src/preload.ts runs it first thing).
import type { ComponentType } from 'react';
import { matchScreen, tokenStatus, type CallName, type ScreenId, type ScreenParams } from '@portal/core';
import { tokenStore } from './lib/session';
import { api } from './lib/client';

/**
 * The first call of a page beyond the chrome's permission list, as its hook in core makes it (same arguments, or the
 * early answer goes unused and expires): the project list, the page a sign-in and most links land on.
 */
const FIRST_CALLS: Partial<Record<ScreenId, (params: ScreenParams) => Array<[CallName, unknown]>>> = {
  projects: ({ clientId }) => [['bucketList', { active: 1, client: clientId }]],
};

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
const from = (name: keyof Omit<typeof import('./signedIn'), 'Shell'>) => remembered(() => signedIn().then((m) => ({ default: m[name] })));

export const LOADERS: Record<PageId, () => Promise<PageModule>> = {
  signup: remembered(() => import('./routes/SignupPage')),
  forgotPassword: remembered(() => import('./routes/ForgotPasswordPage')),
  resetPassword: remembered(() => import('./routes/ResetPasswordPage')),
  account: from('AccountPage'),
  getStarted: from('GetStartedPage'),
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
  emailConfirm: remembered(() => import('./routes/EmailConfirmPage')),
  usage: from('UsagePage'),
  webhooks: from('WebhooksPage'),
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
    // Signed in: the chrome's and the page's first calls leave now, beside the files, instead of once those files
    // have arrived and rendered (the page's identical call takes this answer: core's lazy client, `prefetch`).
    if (tokenStatus(tokenStore.get(), Date.now(), null) === 'ok') {
      api.prefetch('permissions');
      for (const [name, args] of FIRST_CALLS[match.screen.id]?.(match.params) ?? []) api.prefetch(name, args);
    }
  }
  LOADERS[match.screen.id as PageId]().catch(fail);
}
