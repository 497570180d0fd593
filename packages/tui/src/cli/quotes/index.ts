// `portal quotes show`: a shrink request's quote, its invoice, the payment portal and the processed request.
import { commands, type NounOptions } from '../verb';
import * as show from './show';

const quotesNoun: NounOptions = { name: 'quotes', summary: 'Quotes of shrink requests', examples: ['portal quotes show <id>'] };

export const { register } = commands([quotesNoun, [show]]);
