// `portal models`: the project's own models (or the general ones with --general), rename and remove.
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as rename from './rename';
import * as remove from './remove';

const modelsNoun: NounOptions = {
  name: 'models',
  summary: "Models: the general ones and the project's own",
  examples: ['portal models list', 'portal models list --general'],
};

export const { register } = commands([modelsNoun, [list, rename, remove]]);
