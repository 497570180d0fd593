// `portal members`: list, invite, role, remove, leave — the client's members and their roles (owners manage them).
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as invite from './invite';
import * as role from './role';
import * as remove from './remove';
import * as leave from './leave';

const membersNoun: NounOptions = {
  name: 'members',
  summary: "The account's members and their roles; owners invite, change roles and remove",
  examples: ['portal members list', 'portal members invite --email ada@example.com --role member', 'portal members leave --yes'],
};

export const { register } = commands([membersNoun, [list, invite, role, remove, leave]]);
