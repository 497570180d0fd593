// `portal keys`: client API keys (list, create, rename, remove) and a key's installer, token and example.
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as create from './create';
import * as rename from './rename';
import * as remove from './remove';
import * as info from './info';

const keysNoun: NounOptions = {
  name: 'keys',
  summary: 'Client API keys: the token and pip installer of the Python package',
  examples: ['portal keys list', 'portal keys create --name "CI"', 'portal keys info <id>'],
};

export const { register } = commands([keysNoun, [list, create, rename, remove, info]]);
