// `portal runs`: a project's requests (list, show, rename, remove) and the download of a request's results.
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as show from './show';
import * as map from './map';
import * as logs from './logs';
import * as rerun from './rerun';
import * as rename from './rename';
import * as remove from './remove';
import * as download from './download';

const runsNoun: NounOptions = {
  name: 'runs',
  summary: "A project's requests (fit, generate and shrink runs)",
  examples: ['portal runs list', 'portal runs show <id>', 'portal runs download <id>'],
};

export const { register } = commands([runsNoun, [list, show, map, logs, rerun, rename, remove, download]]);
