// `portal usage`: an account's requests, input parameters and amounts quoted per UTC day, with a bar chart in text.
import { commands } from '../verb';
import * as usage from './usage';

export const { register } = commands(usage);
