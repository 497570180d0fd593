// One screen component per route of core's table (the same names as the web portal's pages), each loaded on
// demand so the first frame does not wait for every screen and for core's schemas.
import type { ComponentType } from 'react';
import type { ScreenId } from '@portal/core';

export const SCREEN_LOADERS: Record<ScreenId, () => Promise<{ default: ComponentType }>> = {
  login: () => import('../screens/LoginScreen'),
  signup: () => import('../screens/SignupScreen'),
  forgotPassword: () => import('../screens/ForgotPasswordScreen'),
  resetPassword: () => import('../screens/ResetPasswordScreen'),
  account: () => import('../screens/AccountScreen'),
  getStarted: () => import('../screens/GetStartedScreen'),
  plan: () => import('../screens/PlanScreen'),
  apikeys: () => import('../screens/ApiKeysScreen'),
  apikeyInfo: () => import('../screens/ApiKeyInfoScreen'),
  integrations: () => import('../screens/IntegrationsScreen'),
  createIntegration: () => import('../screens/CreateIntegrationScreen'),
  projects: () => import('../screens/ProjectsScreen'),
  models: () => import('../screens/ModelsScreen'),
  runs: () => import('../screens/RunsScreen'),
  uploads: () => import('../screens/UploadsScreen'),
  createFitRun: () => import('../screens/CreateFitRunScreen'),
  createShrinkRun: () => import('../screens/CreateShrinkRunScreen'),
  runDetails: () => import('../screens/RunDetailsScreen'),
  quoteDetails: () => import('../screens/QuoteDetailsScreen'),
  members: () => import('../screens/MembersScreen'),
  audit: () => import('../screens/AuditScreen'),
  invite: () => import('../screens/InviteScreen'),
  emailConfirm: () => import('../screens/EmailConfirmScreen'),
  usage: () => import('../screens/UsageScreen'),
  webhooks: () => import('../screens/WebhooksScreen'),
};

const loaded = new Map<ScreenId, ComponentType>();

/** The screen's component when its module has loaded, else undefined (see loadScreen). */
export const loadedScreen = (id: ScreenId): ComponentType | undefined => loaded.get(id);

/**
 * Loads a screen's module. Not React.lazy: React holds a resolved Suspense boundary back for up to 300 ms to
 * avoid flicker, which would delay the first frame; start.tsx loads the first screen before rendering.
 */
export async function loadScreen(id: ScreenId): Promise<ComponentType> {
  const hit = loaded.get(id);
  if (hit) return hit;
  const mod = await SCREEN_LOADERS[id]();
  loaded.set(id, mod.default);
  return mod.default;
}
