// `portal plan`: Compare Plans, Individual versus Enterprise, with the account's current plan.
import { commands } from '../verb';
import * as plan from './plan';

export const { register } = commands(plan);
