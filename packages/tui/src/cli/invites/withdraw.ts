// `portal invites withdraw`: withdraw a pending invitation: its link stops working; owners only.
import { TEAM_MESSAGES } from '@portal/core';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'withdraw <id>',
  summary: 'Withdraw a pending invitation: its link stops working; owners only',
};

export interface WithdrawOptions {
  id: string;
}

export async function run(opts: WithdrawOptions, s: Session): Promise<void> {
  const { id } = opts;
  const api = await s.api();
  await api.calls.inviteRemove({ invite: id });
  s.out.done({ ok: true }, TEAM_MESSAGES.withdrawn);
}
