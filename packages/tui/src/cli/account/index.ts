// `portal account`: your own account – show it and its security events, change the password or the email address
// (confirmed by the link mailed to the new one), export everything it holds as one JSON file, delete it.
import { commands, type NounOptions } from '../verb';
import * as events from './events';
import * as show from './show';
import * as password from './password';
import * as email from './email';
import * as confirmEmail from './confirm-email';
import * as exportData from './export';
import * as deleteAccount from './delete';

const accountNoun: NounOptions = {
  name: 'account',
  summary: 'Your own account: password, email address, export of your data, deletion',
  examples: ['portal account show', 'portal account password', 'portal account export --output my-data.json'],
};

export const { register } = commands([accountNoun, [events, show, password, email, confirmEmail, exportData, deleteAccount]]);
