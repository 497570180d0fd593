// Moving stored tokens to the current encryption key (at start, and by `admin rotate-keys`), and replacing the
// signing key: no stored token is lost on the way, and a crash at any step leaves every token readable.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { ENCRYPTION_KEY_FILE, SIGNING_KEY_FILE, writeKeyFile, type Config } from '../config';
import { newKeyText, type Secrets } from './secrets';

export class KeyError extends Error {}

/** Where encrypted tokens are stored: each table's key column and its encrypted column. */
const STORED = [
  { table: 'apikeys', key: 'clue', column: 'token_enc' },
  { table: 'integrations', key: 'clue', column: 'token_enc' },
  // Two-factor sign-in's secrets (issue 30).
  { table: 'user_otp', key: 'user_stamp', column: 'secret_enc' },
  // Webhook endpoints' signing secrets (the one before a rotation lives 24 hours and is not moved).
  { table: 'webhook_endpoints', key: 'stamp', column: 'secret_enc' },
] as const;

/**
 * Re-encrypts every stored key, integration token and two-factor secret not yet under the current encryption key
 * (tokens of earlier versions were encrypted with a key derived from JWT_SECRET). Each row is rewritten only if it
 * did not change meanwhile, so several processes starting at once do no harm. `unreadable` counts tokens no known
 * key opens.
 */
export async function reencryptStored(db: Kysely<DB>, secrets: Secrets): Promise<{ moved: number; unreadable: number }> {
  let moved = 0;
  let unreadable = 0;
  for (const { table, key, column } of STORED) {
    // One shape for the three tables: their key and encrypted column read under common names.
    const rows = await db
      .selectFrom(table)
      .select([sql.ref<string>(key).as('id'), sql.ref<string>(column).as('enc')])
      .execute();
    for (const row of rows) {
      if (secrets.isCurrent(row.enc)) continue;
      let plain: string;
      try {
        plain = secrets.decrypt(row.enc);
      } catch {
        unreadable++;
        continue;
      }
      await sql`update ${sql.table(table)} set ${sql.ref(column)} = ${secrets.encrypt(plain)} where ${sql.ref(key)} = ${row.id} and ${sql.ref(column)} = ${row.enc}`.execute(
        db,
      );
      moved++;
    }
  }
  return { moved, unreadable };
}

const tokens = (n: number) => `${n} stored token${n === 1 ? '' : 's'}`;

/**
 * A new encryption key. Kept in DATA_DIR: the new key is written first beside the old ones, every token is
 * re-encrypted, then the old keys are dropped (only when every token moved). From the environment: the operator
 * puts the new key first (`ENCRYPTION_KEY=new,old`); this re-encrypts under it and says to drop the old ones.
 */
export async function rotateEncryption(db: Kysely<DB>, config: Config, secrets: Secrets): Promise<string> {
  if (config.encryptionKeysFrom === 'env') {
    if (config.encryptionKeys.length < 2) {
      throw new KeyError(
        'ENCRYPTION_KEY is set in the environment, so the new key comes from there: set ENCRYPTION_KEY=<new key>,<current key> ' +
          `on this command (and every API process), run it again, then keep only the new key. A new key: ${newKeyText()}`,
      );
    }
    const { moved, unreadable } = await reencryptStored(db, secrets);
    return (
      `Re-encrypted ${tokens(moved)} with the first key of ENCRYPTION_KEY.` +
      (unreadable
        ? ` ${tokens(unreadable)} could not be read with any key and were left as they are.`
        : ' Now set ENCRYPTION_KEY to that key alone.')
    );
  }
  const keys = [newKeyText(), ...config.encryptionKeys];
  writeKeyFile(config.dataDir, ENCRYPTION_KEY_FILE, keys);
  config.encryptionKeys = keys;
  secrets.setEncryption(keys);
  const { moved, unreadable } = await reencryptStored(db, secrets);
  if (unreadable) {
    return `Re-encrypted ${tokens(moved)} with a new key in DATA_DIR/${ENCRYPTION_KEY_FILE}; ${tokens(unreadable)} could not be read with any key, so the old keys stay in the file.`;
  }
  writeKeyFile(config.dataDir, ENCRYPTION_KEY_FILE, [keys[0]]);
  config.encryptionKeys = [keys[0]];
  secrets.setEncryption([keys[0]]);
  return `Re-encrypted ${tokens(moved)} with a new key in DATA_DIR/${ENCRYPTION_KEY_FILE}; the old key is gone.`;
}

/** A new signing key: every session ends and every link handed out (upload, download, payment, reset) stops working. */
export async function rotateSigning(db: Kysely<DB>, config: Config, secrets: Secrets): Promise<string> {
  if (config.jwtSecretFrom === 'env') {
    throw new KeyError(`JWT_SECRET is set in the environment: change it there and restart every API process. A new key: ${newKeyText()}`);
  }
  // Tokens still in the format of earlier versions depend on the old signing key: move them first.
  const { unreadable } = await reencryptStored(db, secrets);
  const key = newKeyText();
  writeKeyFile(config.dataDir, SIGNING_KEY_FILE, [key]);
  config.jwtSecret = key;
  secrets.setSigning(key);
  return (
    `New signing key in DATA_DIR/${SIGNING_KEY_FILE}: everyone is signed out, and links handed out before (upload, download, payment, password reset) no longer work.` +
    (unreadable ? ` ${tokens(unreadable)} could not be read with any key.` : ' Stored tokens are unchanged.')
  );
}
