// Guarded routes: no token and an expired token both go to the root with SPEC's notice; the expired one is removed.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { MESSAGES } from '@portal/core';
import { renderApp } from '../test-utils';
import { setAuthFailureHandler, TOKEN_KEY } from '../lib/session';
import { RequireAuth } from './RequireAuth';

afterEach(() => {
  cleanup();
  setAuthFailureHandler(null);
  localStorage.clear();
});

function Root() {
  const [message, setMessage] = useState('');
  useEffect(() => {
    setAuthFailureHandler(setMessage);
  }, []);
  return <p>root: {message}</p>;
}

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const jwt = (exp: number) => `${b64({ alg: 'HS256' })}.${b64({ exp })}.sig`;

describe('RequireAuth', () => {
  beforeEach(() => localStorage.clear());

  it('sends a visitor without a token to the root with Token missing', async () => {
    renderApp(
      <RequireAuth>
        <p>secret</p>
      </RequireAuth>,
      { path: '/account', at: '/account', extra: { '/': <Root /> } },
    );
    expect(await screen.findByText(`root: ${MESSAGES.tokenMissing}`)).toBeTruthy();
    expect(screen.queryByText('secret')).toBeNull();
  });

  it('removes an expired token and shows Token expired', async () => {
    localStorage.setItem(TOKEN_KEY, jwt(Math.floor(Date.now() / 1000) - 5));
    renderApp(
      <RequireAuth>
        <p>secret</p>
      </RequireAuth>,
      { path: '/account', at: '/account', extra: { '/': <Root /> } },
    );
    expect(await screen.findByText(`root: ${MESSAGES.tokenExpired}`)).toBeTruthy();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
  });

  it('lets a valid token through', () => {
    localStorage.setItem(TOKEN_KEY, jwt(Math.floor(Date.now() / 1000) + 3600));
    renderApp(
      <RequireAuth>
        <p>secret</p>
      </RequireAuth>,
      { path: '/account', at: '/account', extra: { '/': <Root /> } },
    );
    expect(screen.getByText('secret')).toBeTruthy();
  });
});
