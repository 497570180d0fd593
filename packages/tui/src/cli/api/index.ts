// `portal api`: a raw authenticated call to the API (gh api): prints the answer's JSON, exits 1 on a non-2xx answer.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addVerb } from '../verb';
import * as api from './api';

export function register(program: Command, deps: Deps): void {
  addVerb(program, api, deps);
}
