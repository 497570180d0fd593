// `portal projects`: list, create, rename, remove, and open (make one the default for --project).
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as create from './create';
import * as rename from './rename';
import * as remove from './remove';
import * as open from './open';

const projectsNoun: NounOptions = {
  name: 'projects',
  summary: 'Projects of an account: each holds uploads, models and requests',
  examples: ['portal projects list', 'portal projects create --name "Churn"', 'portal projects open <id>'],
};

export const { register } = commands([projectsNoun, [list, create, rename, remove, open]]);
