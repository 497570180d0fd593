// `portal invites`: pending invitations of the account (list, withdraw) and accepting one from its link's token.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as list from './list';
import * as withdraw from './withdraw';
import * as accept from './accept';

export function register(program: Command, deps: Deps): void {
  addNoun(
    program,
    deps,
    {
      name: 'invites',
      summary: 'Invitations: pending ones of the account (owners withdraw them), and accepting yours',
      examples: ['portal invites list', 'portal invites withdraw <id>', 'portal invites accept "$TOKEN_OR_LINK"'],
    },
    [list, withdraw, accept],
  );
}
