// `portal fit`: a request that trains a model on a Ready upload and transforms its data (pile → fit → generate);
// `portal generate`: a request that reuses a Finished model of the project instead (the generate run alone).
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addVerb } from '../verb';
import * as fit from './fit';
import * as generate from './generate';

export function register(program: Command, deps: Deps): void {
  addVerb(program, fit, deps);
  addVerb(program, generate, deps);
}
