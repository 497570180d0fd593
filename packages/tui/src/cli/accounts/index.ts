// `portal accounts list`: the user's client accounts (from the permission list).
import { commands, type NounOptions } from '../verb';
import * as list from './list';

const accountsNoun: NounOptions = { name: 'accounts', summary: 'Your client accounts', examples: ['portal accounts list'] };

export const { register } = commands([accountsNoun, [list]]);
