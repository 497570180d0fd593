// Opaque random ids and the clock: ids are never sequential, times are epoch seconds.
import { randomBytes } from 'node:crypto';

export const newId = (prefix = '') => prefix + randomBytes(12).toString('base64url');
export const now = () => Math.floor(Date.now() / 1000);
