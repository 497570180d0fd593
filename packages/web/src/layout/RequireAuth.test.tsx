// Guarded routes: no token and an expired token both go to the root with SPEC's notice; the expired one is removed.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { MESSAGES } from '@portal/core';
import { renderApp } from '../../test/utils';
import { markSignedOut, resetAuthEpisode, setAuthFailureHandler, TOKEN_KEY, tokenStore } from '../lib/session';
import { RequireAuth } from './RequireAuth';

afterEach(() => {
  cleanup();
  setAuthFailureHandler(null);
  resetAuthEpisode();
  delivered.length = 0;
  localStorage.clear();
  sessionStorage.clear();
});

/** Every message the app's handler received, in order. */
const delivered: string[] = [];

function Root() {
  const [message, setMessage] = useState('');
  useEffect(() => {
    setAuthFailureHandler((m) => {
      delivered.push(m);
      setMessage(m);
    });
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

  it('after a deliberate logout, a page reached with Back goes to the root without a notice', async () => {
    tokenStore.set(jwt(Math.floor(Date.now() / 1000) + 3600));
    markSignedOut();
    tokenStore.clear();
    renderApp(
      <RequireAuth>
        <p>secret</p>
      </RequireAuth>,
      { path: '/account', at: '/account', extra: { '/': <Root /> } },
    );
    expect(await screen.findByText('root:')).toBeTruthy();
    await waitFor(() => expect(delivered).toEqual(['']));
  });

  it('an ended session remembers its page, and signing in again (landing on /account) opens it once', async () => {
    const guarded = (
      <RequireAuth>
        <p>secret</p>
      </RequireAuth>
    );
    const first = renderApp(guarded, { path: '/client/:id/projects', at: '/client/c1/projects?x=1', extra: { '/': <Root /> } });
    expect(await screen.findByText(`root: ${MESSAGES.tokenMissing}`)).toBeTruthy();
    first.unmount();
    tokenStore.set(jwt(Math.floor(Date.now() / 1000) + 3600));
    renderApp(guarded, { path: '/account', at: '/account', extra: { '/client/c1/projects': <p>projects again</p> } });
    expect(await screen.findByText('projects again')).toBeTruthy();
    cleanup();
    // Used once: My Account stays My Account afterwards.
    renderApp(guarded, { path: '/account', at: '/account' });
    expect(screen.getByText('secret')).toBeTruthy();
  });
});
