// `portal audit`: the account's audit log, newest first (owners only), as many entries as --limit asks for.
import { commands } from '../verb';
import * as audit from './audit';

export const { register } = commands(audit);
