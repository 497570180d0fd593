// The team: members, invitations, roles and the audit log: their schemas and their calls of the route table (one module of calls.ts, loaded on its own by the
// API client when a door first makes one of them).
import { TEAM_MESSAGES } from '../../rules/team';
import {
  AuditQuery,
  AuditResponse,
  InviteAcceptBody,
  InviteAcceptResponse,
  InviteCreateBody,
  InviteListResponse,
  InviteRemoveBody,
  InviteResponse,
  MemberListResponse,
  MemberQuery,
  MemberRemoveBody,
  MemberResponse,
  MemberRoleBody,
} from '../team';
import { Ok, call } from './common';

// ---- the calls ----
export const TEAM_CALLS = {
  memberList: call({
    method: 'GET',
    path: '/api/client/member/item',
    query: MemberQuery,
    response: MemberListResponse,
    failure: TEAM_MESSAGES.loadMembers,
  }),
  // The team calls' refusals are the server's own sentences (already a member, the last owner, ...): no failure text hides them.
  inviteCreate: call({
    method: 'PUT',
    path: '/api/client/member/invite',
    body: InviteCreateBody,
    response: InviteResponse,
  }),
  inviteList: call({ method: 'GET', path: '/api/client/member/invite', query: MemberQuery, response: InviteListResponse }),
  inviteRemove: call({ method: 'POST', path: '/api/client/member/invite/remove', body: InviteRemoveBody, response: Ok }),
  inviteAccept: call({
    method: 'POST',
    path: '/api/client/member/accept',
    body: InviteAcceptBody,
    response: InviteAcceptResponse,
  }),
  memberRole: call({ method: 'POST', path: '/api/client/member/role', body: MemberRoleBody, response: MemberResponse }),
  memberRemove: call({ method: 'POST', path: '/api/client/member/remove', body: MemberRemoveBody, response: Ok }),
  audit: call({
    method: 'GET',
    path: '/api/client/audit',
    query: AuditQuery,
    response: AuditResponse,
    failure: TEAM_MESSAGES.loadAudit,
  }),
} as const;
