import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkCompanyName,
  checkDescription,
  checkDropFiles,
  checkEmail,
  checkFitRequest,
  checkFitSize,
  checkIntegration,
  checkIntegrationToken,
  fitUploadProblem,
  checkPassword,
  checkPasswordMatch,
  checkResetPassword,
  checkSignup,
  checkTitle,
  checkUsername,
  isUpgradeMessage,
} from '.';
import { MESSAGES } from '../messages';

// SPEC.md's texts, copied literally: a typo in messages.ts fails here.
const TITLE_CREATE = 'Please enter the title between 1 and 60 characters long';
const TITLE_RENAME = 'Title must be between 1 and 60 characters long';
const TOKEN = 'Token must be between 1 and 10,000 characters long';
const EMAIL = 'Invalid email address.';
const USERNAME = 'Username must be alphanumeric, with dashes or underscores, and between 5 and 30 characters long.';
const COMPANY = 'Name must be between 5 and 50 characters long.';
const PASSWORD =
  'Password must be 8-64 characters long, include an uppercase letter, a lowercase letter, a number, and a special character.';
const MISMATCH = 'Passwords do not match.';
const TERMS = 'You must agree to the privacy policy and terms of service.';
const FILL = 'Please fill out all fields';
const SELECT_UPLOAD = 'Please select an upload for this request';
const TOO_LARGE = 'One or more files exceed the max size limit.';

const s = (n: number, c = 'a') => c.repeat(n);

describe('titles: 1-60 characters after trimming', () => {
  it.each([
    [0, TITLE_CREATE, TITLE_RENAME],
    [1, null, null],
    [60, null, null],
    [61, TITLE_CREATE, TITLE_RENAME],
  ])('%i characters', (n, create, rename) => {
    expect(checkTitle(s(n), 'create')).toBe(create);
    expect(checkTitle(s(n), 'rename')).toBe(rename);
    // Surrounding spaces do not count.
    expect(checkTitle(`   ${s(n)}  `, 'create')).toBe(create);
  });
  it('only spaces is empty', () => {
    expect(checkTitle('     ')).toBe(TITLE_CREATE);
    expect(checkTitle(undefined)).toBe(TITLE_CREATE);
  });
});

describe('integration token: 1-10,000 characters', () => {
  it.each([
    [0, TOKEN],
    [1, null],
    [10_000, null],
    [10_001, TOKEN],
  ])('%i characters', (n, want) => expect(checkIntegrationToken(s(n))).toBe(want));
});

describe('description: up to 300 characters', () => {
  it('300 passes, 301 fails', () => {
    expect(checkDescription(s(300))).toBeNull();
    expect(checkDescription(s(301))).toBe('Description must be at most 300 characters long');
    expect(checkDescription('')).toBeNull();
  });
});

describe('sign-up fields', () => {
  it.each([
    [4, USERNAME],
    [5, null],
    [30, null],
    [31, USERNAME],
  ])('username of %i characters', (n, want) => expect(checkUsername(s(n, 'u'))).toBe(want));
  it('username allows letters, digits, dash and underscore only', () => {
    expect(checkUsername('Ann_Lee-42')).toBeNull();
    expect(checkUsername('ann lee')).toBe(USERNAME);
    expect(checkUsername('ann.lee')).toBe(USERNAME);
  });
  it.each([
    [4, COMPANY],
    [5, null],
    [50, null],
    [51, COMPANY],
  ])('company name of %i characters', (n, want) => expect(checkCompanyName(s(n, 'n'))).toBe(want));
  it('email pattern', () => {
    expect(checkEmail('ann@example.com')).toBeNull();
    for (const bad of ['', 'ann', 'ann@', 'ann@example', 'a n@example.com', 'ann@@example.com']) expect(checkEmail(bad)).toBe(EMAIL);
  });
  it.each([
    [7, PASSWORD],
    [8, null],
    [64, null],
    [65, PASSWORD],
  ])('password of %i characters', (n, want) => expect(checkPassword(`Aa1!${s(n - 4, 'x')}`)).toBe(want));
  it.each([
    ['no uppercase letter', 'aa1!xxxx'],
    ['no lowercase letter', 'AA1!XXXX'],
    ['no digit', 'Aab!xxxx'],
    ['no special character', 'Aa1bxxxx'],
  ])('password with %s fails', (_, pw) => expect(checkPassword(pw)).toBe(PASSWORD));
  it('confirmation and terms', () => {
    expect(checkPasswordMatch('Aa1!xxxx', 'Aa1!xxxy')).toBe(MISMATCH);
    const ok = { email: 'ann@example.com', username: 'annlee', name: 'Acme Labs', password: 'Aa1!xxxx', confirm: 'Aa1!xxxx', terms: true };
    expect(checkSignup(ok)).toEqual({});
    expect(checkSignup({ ...ok, terms: false, confirm: 'x' })).toEqual({ terms: TERMS, confirm: MISMATCH });
    expect(checkResetPassword({ password: 'short', confirm: 'other' })).toEqual({ password: PASSWORD, confirm: MISMATCH });
  });
});

describe('fit request sizes per plan', () => {
  it.each([
    ['inputs', 3, 'Individual plans are limited to 3 input features'],
    ['outputs', 5, 'Individual plans are limited to 5 output features'],
    ['target', 1, 'Individual plans are limited to 1 target size'],
  ] as const)('Individual %s: 1..%i, then the upgrade message', (field, max, message) => {
    expect(checkFitSize(field, 0, 'Individual')).toBe('Must be at least 1');
    expect(checkFitSize(field, 1, 'Individual')).toBeNull();
    expect(checkFitSize(field, max, 'Individual')).toBeNull();
    expect(checkFitSize(field, max + 1, 'Individual')).toBe(message);
    expect(isUpgradeMessage(message, 'Individual')).toBe(true);
  });
  it.each([
    ['inputs', 500],
    ['outputs', 500],
    ['target', 1],
  ] as const)('Enterprise %s: 1..%i, then the initial-limit message', (field, max) => {
    expect(checkFitSize(field, max, 'Enterprise')).toBeNull();
    const message = checkFitSize(field, max + 1, 'Enterprise');
    expect(message).toBe(`${max} is the initial limit, contact us for a limit increase at no cost`);
    expect(isUpgradeMessage(message, 'Enterprise')).toBe(false);
  });
  it('every field is required and an upload must be chosen', () => {
    expect(checkFitSize('inputs', '', 'Individual')).toBe(FILL);
    expect(checkFitSize('inputs', null, 'Individual')).toBe(FILL);
    expect(checkFitSize('inputs', '2', 'Individual')).toBeNull();
    const errors = checkFitRequest({ name: '', inputs: '', outputs: 2, target: 1, explainability: true, upload: '' }, 'Individual');
    expect(errors).toEqual({
      name: TITLE_CREATE,
      inputs: FILL,
      explainability: 'Explainability is not available on the Individual plan',
      upload: SELECT_UPLOAD,
    });
    expect(
      checkFitRequest({ name: 'Fit', inputs: 500, outputs: 500, target: 1, explainability: true, upload: 'r1' }, 'Enterprise'),
    ).toEqual({});
  });
});

describe('drop zone', () => {
  const MB = 1024 * 1024;
  it('caps the count per context', () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ name: `f${i}.json`, size: 1 }));
    expect(checkDropFiles(ten, 'uploads', 'Individual')).toBeNull();
    expect(checkDropFiles([...ten, { name: 'x.json', size: 1 }], 'uploads', 'Individual')).toBe('You can only upload up to 10 files.');
    expect(checkDropFiles(ten.slice(0, 2), 'fit', 'Individual')).toBe('You can only upload up to 1 files.');
  });
  it('checks size against the plan', () => {
    expect(checkDropFiles([{ name: 'a.json', size: MB }], 'uploads', 'Individual')).toBeNull();
    expect(checkDropFiles([{ name: 'a.json', size: MB + 1 }], 'uploads', 'Individual')).toBe(TOO_LARGE);
    expect(checkDropFiles([{ name: 'a.json', size: 10 * MB }], 'uploads', 'Enterprise')).toBeNull();
    expect(checkDropFiles([{ name: 'a.json', size: 10 * MB + 1 }], 'uploads', 'Enterprise')).toBe(TOO_LARGE);
  });
  it('checks extensions per context', () => {
    expect(checkDropFiles([{ name: 'model.PY', size: 1 }], 'shrink', 'Individual')).toBeNull();
    expect(checkDropFiles([{ name: 'a.xlsx', size: 1 }], 'uploads', 'Individual')).toBe(
      'Invalid file type. Allowed: .json, .npy, .npz, .pkl, .pickle, .sav, .py, .pt, .txt',
    );
    expect(checkDropFiles([{ name: 'a.npy', size: 1 }], 'fit', 'Individual')).toBe('Invalid file type. Allowed: .json');
    expect(checkDropFiles([{ name: 'a.json', size: 1 }], 'shrink', 'Individual')).toBe('Invalid file type. Allowed: .py');
  });
  it('takes a .csv or .tsv where a .json table is taken (it is converted before upload), and only there', () => {
    expect(checkDropFiles([{ name: 'flowers.csv', size: 1 }], 'uploads', 'Individual')).toBeNull();
    expect(checkDropFiles([{ name: 'flowers.TSV', size: 1 }], 'fit', 'Individual')).toBeNull();
    expect(checkDropFiles([{ name: 'flowers.csv', size: 1 }], 'shrink', 'Individual')).toBe('Invalid file type. Allowed: .py');
  });
});

describe('properties', () => {
  it('a title passes exactly when its trimmed length is 1-60', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 90 }), fc.constantFrom('create', 'rename') as fc.Arbitrary<'create' | 'rename'>, (v, mode) => {
        const n = v.trim().length;
        expect(checkTitle(v, mode) === null).toBe(n >= 1 && n <= 60);
      }),
    );
  });
  it('padding a title with spaces never changes the verdict', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 70 }), fc.nat(5), fc.nat(5), (v, a, b) => {
        expect(checkTitle(' '.repeat(a) + v + ' '.repeat(b))).toBe(checkTitle(v));
      }),
    );
  });
  it('a password passes exactly when it has the length and all four classes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (v) => {
        const ok = v.length >= 8 && v.length <= 64 && /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) && /[^A-Za-z0-9]/.test(v);
        expect(checkPassword(v) === null).toBe(ok);
      }),
    );
  });
  it('any 8-64 character password built from all four classes passes', () => {
    const pick = (chars: string) => fc.constantFrom(...chars.split(''));
    fc.assert(
      fc.property(
        pick('ABCXYZ'),
        pick('abcxyz'),
        pick('0123456789'),
        pick('!@#$%^&*'),
        fc.string({ minLength: 4, maxLength: 60 }),
        (u, l, d, p, rest) => {
          expect(checkPassword(u + l + d + p + rest)).toBeNull();
        },
      ),
    );
  });
  it('usernames: valid characters at valid lengths pass, anything else fails', () => {
    const ok = fc.stringMatching(/^[A-Za-z0-9_-]{5,30}$/);
    fc.assert(
      fc.property(ok, (v) => {
        expect(checkUsername(v)).toBeNull();
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (v) => {
        expect(checkUsername(v) === null).toBe(/^[A-Za-z0-9_-]{5,30}$/.test(v));
      }),
    );
  });
  it('company names and tokens follow their length ranges', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (v) => {
        const n = v.trim().length;
        expect(checkCompanyName(v) === null).toBe(n >= 5 && n <= 50);
      }),
    );
    fc.assert(
      fc.property(fc.nat(12_000), (n) => {
        expect(checkIntegrationToken('t'.repeat(n)) === null).toBe(n >= 1 && n <= 10_000);
      }),
      { numRuns: 50 },
    );
  });
  it('fit sizes pass exactly within 1..plan maximum', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 600 }),
        fc.constantFrom('Individual', 'Enterprise') as fc.Arbitrary<'Individual' | 'Enterprise'>,
        (n, plan) => {
          const max = plan === 'Individual' ? 3 : 500;
          expect(checkFitSize('inputs', n, plan) === null).toBe(n >= 1 && n <= max);
        },
      ),
    );
  });
  it('emails with a local part, a domain and a dot pass', () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,10}$/);
    fc.assert(
      fc.property(word, word, fc.stringMatching(/^[a-z]{2,6}$/), (a, b, tld) => {
        expect(checkEmail(`${a}@${b}.${tld}`)).toBeNull();
      }),
    );
  });
});

describe('fitUploadProblem', () => {
  const group = (flight: string, files: Array<[string, string]>) => ({
    name: 'data.json',
    flight,
    upload: { list: files.map(([name, state]) => ({ name, state })) },
  });
  it('needs an upload that exists, is Ready and holds a Finished .json file', () => {
    expect(fitUploadProblem(undefined)).toBe(MESSAGES.uploadNotFound);
    expect(fitUploadProblem(group('Processing', [['data.json', 'Preparing']]))).toBe(
      `${MESSAGES.uploadNotFound}: only Ready uploads can be used, and data.json is Processing`,
    );
    expect(fitUploadProblem(group('Ready', [['model.py', 'Finished']]))).toBe(MESSAGES.generateFileNotFound);
    expect(fitUploadProblem(group('Ready', [['data.json', 'Failed']]))).toBe(MESSAGES.generateFileNotFound);
    expect(
      fitUploadProblem(
        group('Ready', [
          ['model.py', 'Finished'],
          ['DATA.JSON', 'Finished'],
        ]),
      ),
    ).toBeNull();
  });
});

describe('checkIntegration', () => {
  it('checks the name and the token', () => {
    expect(checkIntegration({ name: ' ', service: 'OpenAI', token: '' })).toEqual({
      name: MESSAGES.titleCreate,
      token: MESSAGES.integrationToken,
    });
    expect(checkIntegration({ name: 'Key', service: 'OpenAI', token: 't' })).toEqual({});
  });
});

describe('resetTokenFrom', () => {
  it("takes the token from the mail's link, or the bare token", async () => {
    const { resetTokenFrom } = await import('./index');
    expect(resetTokenFrom('  abc.def.ghi ')).toBe('abc.def.ghi');
    expect(resetTokenFrom('https://portal.example.com/reset-password?token=abc.def.ghi')).toBe('abc.def.ghi');
    expect(resetTokenFrom('<http://localhost:8080/reset-password?x=1&token=a%2Eb.c#top>')).toBe('a.b.c');
  });
});

describe('upgradeTarget', async () => {
  const { upgradeTarget } = await import('./index');
  it('offers the next plan, and nothing on the top plan', () => {
    expect(upgradeTarget('Individual')).toBe('Enterprise');
    expect(upgradeTarget('Enterprise')).toBeNull();
    expect(upgradeTarget(undefined)).toBeNull();
  });
});
