// `portal quotes show`: a shrink request's quote, its invoice, the payment portal and the processed request.
import type { Command } from 'commander';
import type { Deps } from '../context';
import { addNoun } from '../verb';
import * as show from './show';

export function register(program: Command, deps: Deps): void {
  addNoun(program, deps, { name: 'quotes', summary: 'Quotes of shrink requests', examples: ['portal quotes show <id>'] }, [show]);
}
