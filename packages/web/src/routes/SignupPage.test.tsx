// Sign-up form rules in the browser: every message under its field, shown on submit and on leaving a field.
// @vitest-environment node
import '@portal/core/testing/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { MESSAGES } from '@portal/core';
import { renderApp } from '../../test/utils';
import SignupPage from './SignupPage';

afterEach(cleanup);

const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;

describe('SignupPage', () => {
  it('shows every rule message on submit without calling the server', () => {
    renderApp(<SignupPage />, { path: '/signup', at: '/signup' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign Up' }));
    for (const m of [MESSAGES.email, MESSAGES.username, MESSAGES.companyName, MESSAGES.password, MESSAGES.terms]) {
      expect(screen.getByText(m)).toBeTruthy();
    }
  });

  it('shows a field message once the field is left, and clears it when fixed', () => {
    renderApp(<SignupPage />, { path: '/signup', at: '/signup' });
    fireEvent.change(field(/^Username/), { target: { value: 'ab' } });
    fireEvent.blur(field(/^Username/));
    expect(screen.getByText(MESSAGES.username)).toBeTruthy();
    expect(screen.queryByText(MESSAGES.email)).toBeNull();
    fireEvent.change(field(/^Username/), { target: { value: 'good_name-1' } });
    expect(screen.queryByText(MESSAGES.username)).toBeNull();
  });

  it('checks the confirmation against the password', () => {
    renderApp(<SignupPage />, { path: '/signup', at: '/signup' });
    fireEvent.change(field(/^Password/), { target: { value: 'Str0ng!Pass' } });
    fireEvent.change(field(/^Confirm password/), { target: { value: 'Str0ng!Pas' } });
    fireEvent.blur(field(/^Confirm password/));
    expect(screen.getByText(MESSAGES.passwordMismatch)).toBeTruthy();
    fireEvent.change(field(/^Confirm password/), { target: { value: 'Str0ng!Pass' } });
    expect(screen.queryByText(MESSAGES.passwordMismatch)).toBeNull();
  });
});
