// `portal invites`: pending invitations of the account (list, withdraw) and accepting one from its link's token.
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as withdraw from './withdraw';
import * as accept from './accept';

const invitesNoun: NounOptions = {
  name: 'invites',
  summary: 'Invitations: pending ones of the account (owners withdraw them), and accepting yours',
  examples: ['portal invites list', 'portal invites withdraw <id>', 'portal invites accept "$TOKEN_OR_LINK"'],
};

export const { register } = commands([invitesNoun, [list, withdraw, accept]]);
