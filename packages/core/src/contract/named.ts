// The contract's exports by name, for the API reference (its components carry the contract's names). Neither in core's
// index nor in the contract's, which carry the schemas' types only: it builds every schema module it reads.
import * as account from './account';
import * as common from './calls/common';
import * as constants from './constants';
import * as entities from './entities';
import * as errorBody from './errorBody';
import * as preview from './preview';
import * as projection from './projection';
import * as reference from './reference';
import * as security from './security';
import * as team from './team';
import * as webhooks from './webhooks';

/**
 * Every export of the contract's entity and shared modules by its name (not the groups' own schemas, which the API
 * reference names after their calls): the API reference names its schemas as the contract does. The order decides the
 * name of a schema exported under two names: the first.
 */
export function contractExports(): Record<string, unknown> {
  return {
    ...constants,
    ...errorBody,
    ...entities,
    ...common,
    ...team,
    ...preview,
    ...projection,
    ...security,
    ...account,
    ...reference,
    ...webhooks,
  };
}
