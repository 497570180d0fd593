// `--json a,b,c` (gh's field selection): the field list is taken out of the arguments before commander reads them,
// so `--json` stays a plain switch and `--json` alone still prints everything.
import { usageError } from './errors';

const FIELD_LIST = /^[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Fields of objects the CLI builds itself (whoami, auth status, logout) rather than the API. */
const CLI_FIELDS = ['origin', 'email', 'username', 'api', 'clients', 'expiresAt', 'expired', 'default', 'source', 'ok'];

/**
 * Every field name of the contract's entities, and the CLI's own objects. Through a chunk of its own: a dynamic
 * import of core's whole index would make every static import of it (the UI's first frame) load all of core and zod.
 */
async function knownFields(): Promise<Set<string>> {
  const { entityFields } = await import('./entityFields');
  return new Set([...CLI_FIELDS, ...entityFields()]);
}

/**
 * The field list of `--json=a,b` or `--json a,b` (a single word after `--json` is a field only when some entity has
 * a field of that name: otherwise it is the command's own argument, as in `portal runs show --json <id>`).
 */
export async function jsonFieldsArgument(argv: readonly string[]): Promise<{ argv: string[]; fields?: string[] }> {
  const out = [...argv];
  for (let i = 0; i < out.length; i++) {
    if (out[i] === '--') break;
    if (out[i].startsWith('--json=')) {
      const list = out[i].slice('--json='.length);
      if (!FIELD_LIST.test(list)) throw usageError(`--json takes field names separated by commas (e.g. --json stamp,name), got "${list}"`);
      out[i] = '--json';
      return { argv: out, fields: list.split(',') };
    }
    if (out[i] !== '--json') continue;
    const next = out[i + 1];
    if (next === undefined || !FIELD_LIST.test(next)) return { argv: out };
    if (!next.includes(',') && !(await knownFields()).has(next)) return { argv: out };
    out.splice(i + 1, 1);
    return { argv: out, fields: next.split(',') };
  }
  return { argv: out };
}
