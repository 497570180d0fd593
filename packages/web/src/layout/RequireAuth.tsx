// Guarded routes (SPEC section 6): no token goes to the root with 'Token missing'; an expired one is removed first.
// The page is remembered so that signing in again opens it (sign-in lands on /account, which forwards there once).
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { MESSAGES, tokenStatus } from '@portal/core';
import { clearReturn, peekReturn, rememberReturn, signalAuthFailure, tokenStore } from '../lib/session';

export function RequireAuth({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const [status] = useState(() => tokenStatus(tokenStore.get(), Date.now(), null));
  const blocked = status === 'missing' || status === 'expired';
  const [back] = useState(() => (!blocked && pathname === '/account' ? peekReturn() : null));
  useEffect(() => {
    if (status === 'expired') tokenStore.clear();
    if (blocked) {
      rememberReturn(pathname + search);
      signalAuthFailure(status === 'missing' ? MESSAGES.tokenMissing : MESSAGES.tokenExpired);
    }
    if (back) clearReturn();
  }, [status, blocked, back, pathname, search]);
  if (blocked) return <Navigate to="/" replace />;
  if (back) return <Navigate to={back} replace />;
  return <>{children}</>;
}
