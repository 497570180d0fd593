// `portal accounts list`: the user's client accounts (from the permission list).
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as list from './list';

export function register(program: Command, deps: Deps): void {
  addNoun(program, deps, { name: 'accounts', summary: 'Your client accounts', examples: ['portal accounts list'] }, [list]);
}
