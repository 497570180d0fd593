import { describe, expect, it } from 'vitest';
import {
  TEAM_MESSAGES,
  canManageMembers,
  inviteNotice,
  canLeave,
  canReadAudit,
  invitePath,
  leaveBlocked,
  removeBlocked,
  returnTo,
  roleChangeBlocked,
  signInThen,
  type TeamMember,
} from './team';

const m = (stamp: string, role: 'owner' | 'member'): TeamMember => ({ user: { stamp, email: `${stamp}@example.com` }, role });

describe('team rules', () => {
  const one = [m('o', 'owner'), m('a', 'member')];
  const two = [m('o', 'owner'), m('p', 'owner'), m('a', 'member')];

  it('only owners invite and read the audit log', () => {
    expect(canManageMembers('owner')).toBe(true);
    expect(canManageMembers('member')).toBe(false);
    expect(canManageMembers(null)).toBe(false);
    expect(canReadAudit('owner')).toBe(true);
    expect(canReadAudit('member')).toBe(false);
  });

  it('the last owner cannot leave; members and one of two owners can', () => {
    expect(leaveBlocked(one, 'o')).toBe(TEAM_MESSAGES.lastOwnerLeave);
    expect(canLeave(one, 'a')).toBe(true);
    expect(canLeave(two, 'o')).toBe(true);
  });

  it('the last owner cannot be demoted; members cannot change roles', () => {
    expect(roleChangeBlocked(one, 'owner', 'o', 'member')).toBe(TEAM_MESSAGES.lastOwnerDemote);
    expect(roleChangeBlocked(two, 'owner', 'o', 'member')).toBeNull();
    expect(roleChangeBlocked(one, 'member', 'a', 'owner')).toBe(TEAM_MESSAGES.ownersOnly);
    expect(roleChangeBlocked(one, 'owner', 'x', 'owner')).toBe(TEAM_MESSAGES.memberNotFound);
    expect(roleChangeBlocked(one, 'owner', 'o', 'owner')).toBeNull();
  });

  it('owners remove others; anyone but the last owner removes themselves', () => {
    expect(removeBlocked(one, 'o', 'owner', 'a')).toBeNull();
    expect(removeBlocked(one, 'a', 'member', 'o')).toBe(TEAM_MESSAGES.ownersOnly);
    expect(removeBlocked(one, 'a', 'member', 'a')).toBeNull();
    expect(removeBlocked(one, 'o', 'owner', 'o')).toBe(TEAM_MESSAGES.lastOwnerLeave);
    expect(removeBlocked(one, 'o', 'owner', 'x')).toBe(TEAM_MESSAGES.memberNotFound);
  });
});

describe('returnTo', () => {
  it('goes back to a path of the portal, never to another site', () => {
    expect(returnTo('/invite?token=abc')).toBe('/invite?token=abc');
    expect(returnTo('//evil.example/x')).toBe('/account');
    expect(returnTo('https://evil.example')).toBe('/account');
    expect(returnTo('/\\evil.example')).toBe('/account');
    expect(returnTo(null)).toBe('/account');
    expect(signInThen(invitePath('a b'))).toBe('/?next=%2Finvite%3Ftoken%3Da%2520b');
  });
});

describe('inviteNotice', () => {
  it('says sent with a mail service, and where the invitation went without one', () => {
    expect(inviteNotice('a@b.co', 'smtp')).toBe('Invitation sent to a@b.co.');
    expect(inviteNotice('a@b.co', undefined)).toBe('Invitation sent to a@b.co.');
    expect(inviteNotice('a@b.co', 'outbox')).toMatch(/no mail service \(SMTP_URL\).*a@b\.co.*outbox folder in the server's DATA_DIR/);
  });
});
