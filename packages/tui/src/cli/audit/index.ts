// `portal audit`: the account's audit log, newest first (owners only), as many entries as --limit asks for.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addVerb } from '../verb';
import * as audit from './audit';

export function register(program: Command, deps: Deps): void {
  addVerb(program, audit, deps);
}
