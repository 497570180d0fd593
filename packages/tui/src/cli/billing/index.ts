// `portal billing`: free credits, outstanding balance and the payment portal of an account.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addVerb } from '../verb';
import * as billing from './billing';

export function register(program: Command, deps: Deps): void {
  addVerb(program, billing, deps);
}
