// The router, driven by core's SCREENS table: every route except login loads lazily.
import { lazy, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { matchScreen, SCREENS, type ScreenId } from '@portal/core';
import { ErrorBoundary } from './layout/ErrorBoundary';
import { PublicLayout } from './layout/PublicLayout';
import { RequireAuth } from './layout/RequireAuth';
import { rememberReturn, setAuthFailureHandler } from './lib/session';
import { notify } from './lib/notify';
import LoginPage from './routes/LoginPage';

const RELOADED = 'portal.reloadedForNewRelease';

/** A page loaded on demand. After a new release the open tab's old chunks are gone: one reload fetches the new ones. */
function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyExoticComponent<ComponentType> {
  return lazy(() =>
    load().then(
      (m) => {
        sessionStorage.removeItem(RELOADED);
        return m;
      },
      (e: unknown) => {
        if (sessionStorage.getItem(RELOADED)) throw e;
        sessionStorage.setItem(RELOADED, '1');
        window.location.reload();
        return new Promise<never>(() => {});
      },
    ),
  );
}

type PageId = Exclude<ScreenId, 'login'>;
/** The chrome and the signed-in pages come in one file (src/signedIn.ts); the public pages each in their own. */
const signedIn = () => import('./signedIn');
const loadShell = () => signedIn().then((m) => ({ default: m.Shell }));
const from = (name: keyof Omit<typeof import('./signedIn'), 'Shell'>) => () => signedIn().then((m) => ({ default: m[name] }));

const LOADERS: Record<PageId, () => Promise<{ default: ComponentType }>> = {
  signup: () => import('./routes/SignupPage'),
  forgotPassword: () => import('./routes/ForgotPasswordPage'),
  resetPassword: () => import('./routes/ResetPasswordPage'),
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
  invite: () => import('./routes/InvitePage'),
  emailConfirm: () => import('./routes/EmailConfirmPage'),
  usage: from('UsagePage'),
};

const Shell = lazyPage(loadShell);
const PAGES = Object.fromEntries(Object.entries(LOADERS).map(([id, load]) => [id, lazyPage(load)])) as Record<
  PageId,
  LazyExoticComponent<ComponentType>
>;

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
  if (match.screen.auth) loadShell().catch(fail);
  LOADERS[match.screen.id as PageId]().catch(fail);
}

function AuthFailures() {
  const navigate = useNavigate();
  useEffect(() => {
    setAuthFailureHandler((message) => {
      // An empty message: the user signed out on purpose, nothing to tell.
      if (message) notify(message, 'error');
      rememberReturn(window.location.pathname + window.location.search);
      navigate('/', { replace: true });
    });
    return () => setAuthFailureHandler(null);
  }, [navigate]);
  return null;
}

export function App() {
  const publicScreens = SCREENS.filter((s) => !s.auth && s.id !== 'login');
  const privateScreens = SCREENS.filter((s) => s.auth);
  return (
    <ErrorBoundary>
      <AuthFailures />
      <Routes>
        <Route element={<PublicLayout />}>
          <Route path="/" element={<LoginPage />} />
          {publicScreens.map((s) => {
            const Page = PAGES[s.id as PageId];
            return <Route key={s.id} path={s.path} element={<Page />} />;
          })}
        </Route>
        <Route
          element={
            <RequireAuth>
              <Shell />
            </RequireAuth>
          }
        >
          {privateScreens.map((s) => {
            const Page = PAGES[s.id as PageId];
            // The project parameter is named bucketId in the table; SPEC's {projectId} spelling is the same path shape.
            return <Route key={s.id} path={s.path} element={<Page />} />;
          })}
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </ErrorBoundary>
  );
}
