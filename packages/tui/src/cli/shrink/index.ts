// `portal shrink`: a shrink request on a Ready upload holding one .py model; it is billed through a quote, so the
// price (estimate - free credit = amount due) is shown and confirmed first: a y/N question on a terminal, --yes without one.
import { commands } from '../verb';
import * as shrink from './shrink';

export const { register } = commands(shrink);
