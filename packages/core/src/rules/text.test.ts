import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages';
import { TitleCreate, TitleRename, Description } from '../contract/calls/common';
import { SignupBody, UploadRegisterBody } from '../contract/table';
import { InviteCreateBody } from '../contract/team';
import { checkCompanyName, checkDescription, checkEmail, checkTitle, checkPlainText, emailKey } from './index';

const ATTACKS = [
  'Acme\x1b]0;pwned\x07 Ltd',
  'Acme\x1b[2J',
  'Acme\r\nBcc: x@evil.test',
  'Acme\x7f',
  'Acme\u009b31m',
  'invoice\u202egpj.exe',
  'Acme\u2066Ltd',
  'Acme\u200fLtd',
  'Acme\u061cLtd',
  'tab\there',
];

describe('the text rule', () => {
  it.each(ATTACKS)('refuses %j with one sentence in every rule', (text) => {
    expect(checkPlainText(text)).toBe(MESSAGES.controlCharacters);
    expect(checkTitle(text.slice(0, 60))).toBe(MESSAGES.controlCharacters);
    expect(checkDescription(text)).toBe(MESSAGES.controlCharacters);
    expect(checkCompanyName(text)).toBe(MESSAGES.controlCharacters);
  });

  it('lets ordinary text through, accents, scripts and emoji included', () => {
    for (const ok of ['Acme Ltd', 'Société Générale', 'شركة الأمل', '東京データ', 'Rocket 🚀 Labs', 'a\u200db'])
      expect(checkPlainText(ok)).toBeNull();
    expect(checkTitle('Quarterly run')).toBeNull();
  });

  it('the contract refuses the same texts, so the server and every door agree', () => {
    for (const schema of [TitleCreate, TitleRename, Description]) {
      const r = schema.safeParse('Quarter\x1b[2J');
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].message).toBe(MESSAGES.controlCharacters);
    }
    const body = { rend: 'r1', name: 'invoice\u202egpj.exe', file: { name: 'ok.json', size: 1, checksum: 'a'.repeat(64) } };
    expect(UploadRegisterBody.safeParse(body).error?.issues[0].message).toBe(MESSAGES.controlCharacters);
    const file = { ...body, name: 'ok.json', file: { ...body.file, name: 'invoice\u202egpj.exe' } };
    expect(UploadRegisterBody.safeParse(file).error?.issues[0].message).toBe(MESSAGES.controlCharacters);
    const signup = { email: 'kate@example.com', username: 'kate_1', password: 'Secret-123!', name: 'Acme\r\nBcc: x@evil.test' };
    expect(SignupBody.safeParse(signup).error?.issues[0].message).toBe(MESSAGES.controlCharacters);
    expect(SignupBody.safeParse({ ...signup, name: 'Acme Ltd', email: 'ka\x1bte@example.com' }).error?.issues[0].message).toBe(
      MESSAGES.controlCharacters,
    );
    expect(InviteCreateBody.safeParse({ client: 'c', email: 'kate\u202e@example.com' }).error?.issues[0].message).toBe(
      MESSAGES.controlCharacters,
    );
  });

  it('SPEC length messages come before the text rule', () => {
    expect(checkTitle('\x1b'.repeat(61))).toBe(MESSAGES.titleCreate);
    expect(TitleCreate.safeParse('\x1b'.repeat(61)).error?.issues[0].message).toBe(MESSAGES.titleCreate);
  });
});

describe('the email normal form', () => {
  it('folds case, compatibility forms and surrounding space', () => {
    expect(emailKey('\u212Aate@Example.com')).toBe('kate@example.com');
    expect(emailKey(' KATE@EXAMPLE.COM ')).toBe('kate@example.com');
    expect(emailKey('ｋａｔｅ@example.com')).toBe('kate@example.com');
    expect(emailKey('anna@example.com')).not.toBe(emailKey('ann@example.com'));
  });

  it('checkEmail refuses control characters in an otherwise valid address', () => {
    expect(checkEmail('kate@example.com')).toBeNull();
    expect(checkEmail('kate\u200e@example.com')).toBe(MESSAGES.controlCharacters);
  });
});
