// The router, driven by core's SCREENS table: every route except login loads lazily.
import { lazy, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes, useNavigate } from 'react-router-dom';
import { SCREENS, type ScreenId } from '@portal/core';
import { ErrorBoundary } from './layout/ErrorBoundary';
import { PublicLayout } from './layout/PublicLayout';
import { RequireAuth } from './layout/RequireAuth';
import { setAuthFailureHandler } from './lib/session';
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

const Shell = lazyPage(() => import('./layout/Shell'));

const PAGES: Record<Exclude<ScreenId, 'login'>, LazyExoticComponent<ComponentType>> = {
  signup: lazyPage(() => import('./routes/SignupPage')),
  forgotPassword: lazyPage(() => import('./routes/ForgotPasswordPage')),
  resetPassword: lazyPage(() => import('./routes/ResetPasswordPage')),
  account: lazyPage(() => import('./routes/AccountPage')),
  plan: lazyPage(() => import('./routes/PlanPage')),
  apikeys: lazyPage(() => import('./routes/ApiKeysPage')),
  apikeyInfo: lazyPage(() => import('./routes/ApiKeyInfoPage')),
  integrations: lazyPage(() => import('./routes/IntegrationsPage')),
  createIntegration: lazyPage(() => import('./routes/CreateIntegrationPage')),
  projects: lazyPage(() => import('./routes/ProjectsPage')),
  models: lazyPage(() => import('./routes/ModelsPage')),
  runs: lazyPage(() => import('./routes/RunsPage')),
  uploads: lazyPage(() => import('./routes/UploadsPage')),
  createFitRun: lazyPage(() => import('./routes/CreateFitRunPage')),
  createShrinkRun: lazyPage(() => import('./routes/CreateShrinkRunPage')),
  runDetails: lazyPage(() => import('./routes/RunDetailsPage')),
  quoteDetails: lazyPage(() => import('./routes/QuoteDetailsPage')),
  usage: lazyPage(() => import('./routes/UsagePage')),
};

function AuthFailures() {
  const navigate = useNavigate();
  useEffect(() => {
    setAuthFailureHandler((message) => {
      notify(message, 'error');
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
            const Page = PAGES[s.id as Exclude<ScreenId, 'login'>];
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
            const Page = PAGES[s.id as Exclude<ScreenId, 'login'>];
            // The project parameter is named bucketId in the table; SPEC's {projectId} spelling is the same path shape.
            return <Route key={s.id} path={s.path} element={<Page />} />;
          })}
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </ErrorBoundary>
  );
}
