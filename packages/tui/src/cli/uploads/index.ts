// `portal uploads`: list, push FILE... (streamed from disk, hashed while read, PUT to the pre-signed URL), preview,
// rename, remove.
import { commands, type NounOptions } from '../verb';
import * as list from './list';
import * as push from './push';
import * as preview from './preview';
import * as rename from './rename';
import * as remove from './remove';

const uploadsNoun: NounOptions = {
  name: 'uploads',
  summary: "A project's uploads (groups of data files)",
  examples: ['portal uploads list', 'portal uploads push data.json --wait'],
};

export const { register } = commands([uploadsNoun, [list, push, preview, rename, remove]]);
