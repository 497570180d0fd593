// The global fallback: a screen that throws while rendering shows SPEC's message instead of a blank page.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MESSAGES } from '@portal/core';
import { ErrorBoundary } from './ErrorBoundary';

afterEach(cleanup);

function Broken(): never {
  throw new Error('boom');
}

describe('ErrorBoundary', () => {
  it('shows An unexpected error has occurred. when a child throws', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.globalFallback);
    expect(screen.getByRole('link', { name: 'Back to My Account' }).getAttribute('href')).toBe('/account');
    quiet.mockRestore();
  });

  it('renders its children when nothing fails', () => {
    render(
      <ErrorBoundary>
        <p>fine</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('fine')).toBeTruthy();
  });
});
