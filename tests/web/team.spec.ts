// Teams in the browser: an owner invites by email, the invitee (no account yet) follows the mailed link, signs up,
// comes back to the invitation and accepts it; the owner changes the role, removes them, and reads the audit log.
import { test, expect } from '@playwright/test';
import { TEAM_MESSAGES } from '@portal/core';
import { checkA11y, createUser, loginToken, mailedLink, notice, PASSWORD, shot, unique } from './helpers';

test('invite -> mail in the outbox -> sign up and accept as a second user -> role, removal and the audit log', async ({
  page,
  request,
}) => {
  const owner = await createUser(request, 'owner');
  const username = unique('invitee');
  const email = `${username}@example.com`;

  await loginToken(page, owner);
  await page.goto(`/client/${owner.clientId}/members`);
  await expect(page.getByRole('heading', { name: 'Members', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Members' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Audit Log' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Leave' })).toBeDisabled();
  await expect(page.getByText(TEAM_MESSAGES.lastOwnerLeave)).toBeVisible();

  await page.getByRole('button', { name: 'Invite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a member' });
  await dialog.getByLabel('Email').fill('not an email');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('Invalid email address.')).toBeVisible();
  await dialog.getByLabel('Email').fill(owner.email);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText(TEAM_MESSAGES.alreadyMember(owner.email))).toBeVisible();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  // The test server has no mail service: the notice says the invitation went to its outbox.
  await expect(notice(page, TEAM_MESSAGES.invitedToOutbox(email))).toBeVisible();
  const pending = page.getByRole('table', { name: 'Pending invitations' });
  await expect(pending.getByText(email)).toBeVisible();
  await checkA11y(page, 'members');
  await shot(page, 'members');

  // The invitee: signed out, no account yet.
  const link = await mailedLink(email, /https?:\/\/\S*\/invite\?token=\S+/);
  await page.evaluate(() => localStorage.clear());
  const url = new URL(link);
  await page.goto(url.pathname + url.search);
  await expect(page.getByRole('heading', { name: 'Invitation' })).toBeVisible();
  await checkA11y(page, 'invite');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/signup\?next=/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Company name').fill(`Company ${username}`.slice(0, 50));
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up' }).click();
  // Back on the invitation, signed in now.
  await expect(page).toHaveURL(/\/invite\?token=/);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${owner.clientId}/members$`));
  await expect(notice(page, TEAM_MESSAGES.joined(owner.company))).toBeVisible();
  const members = page.getByRole('table', { name: 'Members' });
  await expect(members.getByText(owner.email)).toBeVisible();
  await expect(members.getByText(email)).toBeVisible();
  // A member does not manage: no Invite button, and the invitation link is spent.
  await expect(page.getByRole('button', { name: 'Invite' })).toHaveCount(0);
  await page.goto(url.pathname + url.search);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page.getByRole('region', { name: 'Invitation' }).getByRole('alert')).toHaveText(TEAM_MESSAGES.inviteUsed);

  // The owner again: make them an owner and back, then remove them after confirming.
  await loginToken(page, owner);
  await page.goto(`/client/${owner.clientId}/members`);
  await page.getByLabel(`Role of ${email}`).selectOption('owner');
  await expect(notice(page, TEAM_MESSAGES.roleChanged(email, 'owner'))).toBeVisible();
  await expect(page.getByRole('button', { name: 'Leave' })).toBeEnabled();
  await page.getByLabel(`Role of ${email}`).selectOption('member');
  await expect(notice(page, TEAM_MESSAGES.roleChanged(email, 'member'))).toBeVisible();
  await page.getByRole('button', { name: `Remove ${email}` }).click();
  await expect(page.getByText(TEAM_MESSAGES.confirmRemove(email))).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(notice(page, TEAM_MESSAGES.removed(email))).toBeVisible();
  await expect(members.getByText(email)).toHaveCount(0);

  // The audit log: newest first, filtered by action.
  await page.getByRole('link', { name: 'Audit Log' }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${owner.clientId}/audit$`));
  const log = page.getByRole('table', { name: 'Audit log' });
  await expect(log.getByText('Removed a member')).toBeVisible();
  await expect(log.getByText('Joined').first()).toBeVisible();
  await expect(log.getByText('Invited a member')).toBeVisible();
  await checkA11y(page, 'audit');
  await shot(page, 'audit');
  await page.getByLabel('Action').selectOption({ label: 'Changed a role' });
  await expect(log.getByText('Changed a role')).toHaveCount(2);
  await expect(log.getByText('Removed a member')).toHaveCount(0);
});
