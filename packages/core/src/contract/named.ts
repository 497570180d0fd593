// The contract's exports by name, for the API reference (its components carry the contract's names). Not in the
// contract's index, which it reads.
import * as contract from './index';

/**
 * Every export of the contract's modules by its name: the API reference names its schemas as the contract does. A
 * function, so a bundle that does not call it (the web's) keeps none of it.
 */
export function contractExports(): Record<string, unknown> {
  return { ...contract };
}
