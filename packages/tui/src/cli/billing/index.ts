// `portal billing`: free credits, outstanding balance and the payment portal of an account.
import { commands } from '../verb';
import * as billing from './billing';

export const { register } = commands(billing);
