// `portal usage`: an account's requests, input parameters and amounts quoted per UTC day, with a bar chart in text.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addVerb } from '../verb';
import * as usage from './usage';

export function register(program: Command, deps: Deps): void {
  addVerb(program, usage, deps);
}
