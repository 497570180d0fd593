// `portal fit`: a request that trains a model on a Ready upload and transforms its data (pile → fit → generate);
// `portal generate`: a request that reuses a Finished model of the project instead (the generate run alone).
import { commands } from '../verb';
import * as fit from './fit';
import * as generate from './generate';

export const { register } = commands(fit, generate);
