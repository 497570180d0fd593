// The names people use, beside the wire's, in what the CLI prints as JSON (and what scripts read with --jq): every
// object with an id (`stamp`, or `clue` for keys) also carries `id`, and every object with a state (`flight` for an
// upload, `state` for a request, model, quote or file) also carries `status`. The wire's names stay, so scripts
// written against the API keep working. The Python client does the same in its objects (docs/GLOSSARY.md).

/** The wire's id fields, in the order they are looked for. */
export const WIRE_ID_FIELDS = ['stamp', 'clue'] as const;
/** The wire's state fields, in the order they are looked for. */
export const WIRE_STATUS_FIELDS = ['flight', 'state'] as const;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * `value` with `id` and `status` added to every object (at any depth) that has a wire id or state; an object that
 * already has an `id` or `status` keeps its own. The names come first, so they lead what a person reads.
 */
export function withEdgeNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withEdgeNames);
  if (!isObject(value)) return value;
  const inner = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withEdgeNames(v)]));
  const id = WIRE_ID_FIELDS.find((f) => typeof value[f] === 'string');
  const status = WIRE_STATUS_FIELDS.find((f) => typeof value[f] === 'string');
  return {
    ...(id && !('id' in value) ? { id: value[id] } : {}),
    ...(status && !('status' in value) ? { status: value[status] } : {}),
    ...inner,
  };
}
