// Tokens signed and checked in the calling thread: kinds never accepted for each other, expiry told apart from a bad
// signature, HS256 only, a replaced signing key taking effect at once, and tokens signed before this version still good.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Secrets } from './secrets';
import { Tokens } from './tokens';

const user = { sub: 'u_1', email: 'ada@example.com', username: 'ada', sid: 's_1' };
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A token made by hand: any header, payload and key, HMAC-SHA256 signed. */
function handMade(header: object, payload: object, key: Uint8Array): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

describe('tokens', () => {
  const secrets = new Secrets('a-signing-secret-of-forty-characters-xx');
  const tokens = new Tokens(secrets);

  it('reads back what it signed, for its own kind only', () => {
    const session = tokens.session(user, inAnHour());
    expect(tokens.verify(session, 'session')).toEqual({
      ok: true,
      claims: { sub: 'u_1', email: 'ada@example.com', username: 'ada', sid: 's_1', jti: undefined },
    });
    const reset = tokens.reset('u_1');
    expect(tokens.verify(reset.token, 'reset')).toMatchObject({ ok: true, claims: { sub: 'u_1', jti: reset.jti } });
    expect(tokens.verify(reset.token, 'session')).toEqual({ ok: false, reason: 'invalid' });
    expect(tokens.verify(session, 'reset')).toEqual({ ok: false, reason: 'invalid' });
    expect(tokens.verify(tokens.otpChallenge('u_1', 300).token, 'email')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('tells an expired token from a forged one', () => {
    const expired = tokens.session(user, Math.floor(Date.now() / 1000) - 60);
    expect(tokens.verify(expired, 'session')).toEqual({ ok: false, reason: 'expired' });
    // Expired and tampered: the signature is checked first, so it is invalid, not merely expired.
    const tampered = `${expired.slice(0, -4)}${expired.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    expect(tokens.verify(tampered, 'session')).toEqual({ ok: false, reason: 'invalid' });
    for (const junk of ['', 'x', 'a.b.c', `${b64({ alg: 'HS256' })}..`]) expect(tokens.verify(junk, 'session').ok).toBe(false);
  });

  it('accepts HS256 only: no unsigned token, no other algorithm with the same key', () => {
    const claims = { ...user, typ: 'session', exp: inAnHour() };
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    expect(tokens.verify(none, 'session')).toEqual({ ok: false, reason: 'invalid' });
    const input = `${b64({ alg: 'HS512' })}.${b64(claims)}`;
    const hs512 = `${input}.${createHmac('sha512', secrets.jwtKey).update(input).digest('base64url')}`;
    expect(tokens.verify(hs512, 'session')).toEqual({ ok: false, reason: 'invalid' });
  });

  it('takes a replaced signing key at once: tokens of the old key are refused', () => {
    const mine = new Tokens(new Secrets('the-first-signing-secret-of-forty-chars'));
    const before = mine.session(user, inAnHour());
    (mine as unknown as { secrets: Secrets }).secrets.setSigning('the-second-signing-secret-of-forty-char');
    expect(mine.verify(before, 'session')).toEqual({ ok: false, reason: 'invalid' });
    expect(mine.verify(mine.session(user, inAnHour()), 'session').ok).toBe(true);
  });

  it('keeps sessions signed before this version (a header of alg alone, no typ)', () => {
    const earlier = handMade({ alg: 'HS256' }, { ...user, typ: 'session', iat: 1, exp: inAnHour() }, secrets.jwtKey);
    expect(tokens.verify(earlier, 'session')).toMatchObject({ ok: true, claims: { sub: 'u_1', sid: 's_1' } });
  });
});
