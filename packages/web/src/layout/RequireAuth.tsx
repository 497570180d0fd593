// Guarded routes (SPEC section 6): no token goes to the root with 'Token missing'; an expired one is removed first.
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { MESSAGES, tokenStatus } from '@portal/core';
import { signalAuthFailure, tokenStore } from '../lib/session';

export function RequireAuth({ children }: { children: ReactNode }) {
  const [status] = useState(() => tokenStatus(tokenStore.get(), Date.now(), null));
  const blocked = status === 'missing' || status === 'expired';
  useEffect(() => {
    if (status === 'expired') tokenStore.clear();
    if (blocked) signalAuthFailure(status === 'missing' ? MESSAGES.tokenMissing : MESSAGES.tokenExpired);
  }, [status, blocked]);
  if (blocked) return <Navigate to="/" replace />;
  return <>{children}</>;
}
