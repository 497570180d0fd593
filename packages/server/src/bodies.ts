// Request bodies are hostile: a JSON text nested deeper than any call needs is refused before anything walks it.

/** No call of the contract nests deeper than a handful of levels; 64 leaves room and keeps every walk shallow. */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `The request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of arrays and objects are accepted.`;

/**
 * True when the JSON text opens more than `max` arrays or objects inside one another. One linear pass over the
 * characters (skipping strings and their escapes), with no recursion, so a body 100,000 levels deep costs no stack.
 */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}
