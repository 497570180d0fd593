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

const Shell = lazy(() => import('./layout/Shell'));

const PAGES: Record<Exclude<ScreenId, 'login'>, LazyExoticComponent<ComponentType>> = {
  signup: lazy(() => import('./routes/SignupPage')),
  forgotPassword: lazy(() => import('./routes/ForgotPasswordPage')),
  resetPassword: lazy(() => import('./routes/ResetPasswordPage')),
  account: lazy(() => import('./routes/AccountPage')),
  plan: lazy(() => import('./routes/PlanPage')),
  apikeys: lazy(() => import('./routes/ApiKeysPage')),
  apikeyInfo: lazy(() => import('./routes/ApiKeyInfoPage')),
  integrations: lazy(() => import('./routes/IntegrationsPage')),
  createIntegration: lazy(() => import('./routes/CreateIntegrationPage')),
  projects: lazy(() => import('./routes/ProjectsPage')),
  models: lazy(() => import('./routes/ModelsPage')),
  runs: lazy(() => import('./routes/RunsPage')),
  uploads: lazy(() => import('./routes/UploadsPage')),
  createFitRun: lazy(() => import('./routes/CreateFitRunPage')),
  createShrinkRun: lazy(() => import('./routes/CreateShrinkRunPage')),
  runDetails: lazy(() => import('./routes/RunDetailsPage')),
  quoteDetails: lazy(() => import('./routes/QuoteDetailsPage')),
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
