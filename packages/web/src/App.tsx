// The router, driven by core's SCREENS table: every route except login loads lazily.
import { lazy, useEffect, type ComponentType, type LazyExoticComponent } from 'react';
import { Route, Routes, useNavigate } from 'react-router-dom';
import { SCREENS } from '@portal/core';
import { arrived, LOADERS, loadShell, type PageId, type PageModule } from './pages';
import { ErrorBoundary } from './layout/ErrorBoundary';
import { PublicLayout } from './layout/PublicLayout';
import { RequireAuth } from './layout/RequireAuth';
import { rememberReturn, setAuthFailureHandler } from './lib/session';
import { notify } from './lib/notify';
import LoginPage from './routes/LoginPage';
import UnknownPage from './routes/UnknownPage';

const RELOADED = 'portal.reloadedForNewRelease';

/**
 * A page loaded on demand. After a new release the open tab's old chunks are gone: one reload fetches the new ones.
 * A page whose file has already arrived (it came with the chrome's, or was preloaded) is handed to React.lazy at once,
 * so it renders in the same pass as the chrome instead of suspending for a tick: its first call leaves together with
 * the chrome's.
 */
function lazyPage(load: () => Promise<PageModule>): LazyExoticComponent<ComponentType> {
  return lazy(() => {
    const ready = arrived(load);
    if (ready) return { then: (ok: (m: PageModule) => unknown) => void ok(ready) } as unknown as Promise<PageModule>;
    return load().then(
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
    );
  });
}

const Shell = lazyPage(loadShell);
const PAGES = Object.fromEntries(Object.entries(LOADERS).map(([id, load]) => [id, lazyPage(load)])) as Record<
  PageId,
  LazyExoticComponent<ComponentType>
>;

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
            return <Route key={s.id} path={s.path} element={<Page />} />;
          })}
        </Route>
        <Route element={<PublicLayout />}>
          <Route path="*" element={<UnknownPage />} />
        </Route>
      </Routes>
    </ErrorBoundary>
  );
}
