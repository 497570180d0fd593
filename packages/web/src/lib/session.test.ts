// The sign-in session in the browser: one notice per ended session, and returns only to this origin's pages.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import { peekReturn, rememberReturn, resetAuthEpisode, RETURN_KEY, setAuthFailureHandler, signalAuthFailure, tokenStore } from './session';

afterEach(() => {
  setAuthFailureHandler(null);
  resetAuthEpisode();
  localStorage.clear();
  sessionStorage.clear();
});

describe('session', () => {
  it('an invalid token gives one notice: the first failure stands, the calls failing after it are quiet', () => {
    const seen: string[] = [];
    setAuthFailureHandler((m) => seen.push(m));
    signalAuthFailure(MESSAGES.tokenExpired);
    signalAuthFailure(MESSAGES.tokenMissing);
    signalAuthFailure(MESSAGES.tokenExpired);
    expect(seen).toEqual([MESSAGES.tokenExpired]);
  });

  it('keeps the refresh time beside the token, so a new page load reads it', () => {
    expect(tokenStore.refreshedAt?.()).toBeNull();
    tokenStore.setRefreshedAt?.(1_700_000_000_000);
    expect(tokenStore.refreshedAt?.()).toBe(1_700_000_000_000);
  });

  it('returns only to a path of this origin', () => {
    rememberReturn('/client/c1/projects?x=1');
    expect(peekReturn()).toBe('/client/c1/projects?x=1');
    for (const planted of ['//evil.example/x', 'https://evil.example/', 'nope']) {
      sessionStorage.setItem(RETURN_KEY, JSON.stringify({ path: planted, at: Date.now() }));
      expect(peekReturn()).toBeNull();
    }
  });
});
