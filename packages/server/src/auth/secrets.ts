// Password hashing (scrypt), encryption at rest (AES-256-GCM) and URL signatures (HMAC), all keyed from the server secret.
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

export class Secrets {
  private readonly encKey: Buffer;
  private readonly signKey: Buffer;

  constructor(secret: string) {
    // Separate keys per purpose, derived from the one configured secret.
    this.encKey = createHash('sha256').update(`portal-encrypt:${secret}`).digest();
    this.signKey = createHash('sha256').update(`portal-sign:${secret}`).digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encKey, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
  }

  decrypt(stored: string): string {
    const [v, iv, tag, body] = stored.split('.');
    if (v !== 'v1') throw new Error('Unknown encryption format.');
    const decipher = createDecipheriv('aes-256-gcm', this.encKey, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
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

export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
