// `portal plan`: Compare Plans, Individual versus Enterprise, with the account's current plan.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addVerb } from '../verb';
import * as plan from './plan';

export function register(program: Command, deps: Deps): void {
  addVerb(program, plan, deps);
}
