// Password hashing (scrypt), encryption at rest (AES-256-GCM, ENCRYPTION_KEY) and signatures (HMAC and session
// JWTs, the signing key): two separate keys, so replacing one never touches what the other protects.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const scryptAsync = (password: string, salt: Buffer, len: number) =>
  new Promise<Buffer>((resolve, reject) =>
    scrypt(password, salt, len, { N: 16384, r: 8, p: 1 }, (err, key) => (err ? reject(err) : resolve(key))),
  );

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(expected, actual);
}

/** A password hash to compare against when the user does not exist, so timing does not reveal it. */
export const DUMMY_HASH = 'scrypt$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

/** The signing key's text (JWT_SECRET) and the encryption keys' texts, the first of which encrypts. */
export interface KeySet {
  signing: string;
  encryption: readonly string[];
}

/** A new random key, as kept in DATA_DIR or printed for an operator to set. */
export const newKeyText = () => randomBytes(32).toString('base64url');

const derive = (label: string, text: string) => createHash('sha256').update(`${label}:${text}`).digest();

interface EncKey {
  kid: string;
  key: Buffer;
}

const encKey = (text: string): EncKey => {
  const key = derive('portal-encryption-key', text);
  // The key id rides in every ciphertext, so a token written under an older key is found and re-encrypted.
  return { kid: createHash('sha256').update(key).digest('base64url').slice(0, 10), key };
};

export class Secrets {
  private signKey!: Buffer;
  private jwt!: Uint8Array;
  private enc: EncKey[] = [];
  /** Keys of the v1 format (derived from the signing secret), kept only to move old tokens to the encryption key. */
  private readonly legacy: Buffer[] = [];

  /** A plain string is one text for both keys (tests and tools); the server always passes a KeySet. */
  constructor(keys: KeySet | string) {
    const set = typeof keys === 'string' ? { signing: keys, encryption: [keys] } : keys;
    this.setSigning(set.signing);
    this.setEncryption(set.encryption);
  }

  setSigning(secret: string): void {
    this.signKey = derive('portal-sign', secret);
    this.jwt = derive('portal-jwt', secret);
    // Until 0.2, stored tokens were encrypted with a key derived from JWT_SECRET.
    this.legacy.push(derive('portal-encrypt', secret));
  }

  setEncryption(texts: readonly string[]): void {
    if (!texts.length) throw new Error('At least one encryption key is needed.');
    this.enc = texts.map(encKey);
  }

  /** The key session JWTs are signed with. */
  get jwtKey(): Uint8Array {
    return this.jwt;
  }

  encrypt(plain: string): string {
    const { kid, key } = this.enc[0];
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v2', kid, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
  }

  decrypt(stored: string): string {
    const parts = stored.split('.');
    if (parts[0] === 'v2') {
      const k = this.enc.find((e) => e.kid === parts[1]);
      if (!k) throw new Error('Encrypted with a key this server does not have.');
      return open(k.key, parts[2], parts[3], parts[4]);
    }
    if (parts[0] === 'v1') {
      for (const key of this.legacy) {
        try {
          return open(key, parts[1], parts[2], parts[3]);
        } catch {
          // Not this one: an earlier signing secret may have written it.
        }
      }
      throw new Error('Encrypted with a server secret this server does not have.');
    }
    throw new Error('Unknown encryption format.');
  }

  /** Whether a stored text is already encrypted with the current encryption key. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`v2.${this.enc[0].kid}.`);
  }

  sign(...parts: Array<string | number>): string {
    return createHmac('sha256', this.signKey).update(parts.join('\n')).digest('base64url');
  }

  verify(signature: string, ...parts: Array<string | number>): boolean {
    const expected = Buffer.from(this.sign(...parts));
    const actual = Buffer.from(String(signature));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  }
}

function open(key: Buffer, iv: string, tag: string, body: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
}

export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
