import { describe, expect, it } from 'vitest';
import { ACCOUNT_EVENTS, accountEventLabel, browserName } from './account';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('browserName', () => {
  it('names the browser and its system, or what it can, or nothing', () => {
    expect(browserName(FIREFOX_LINUX)).toBe('Firefox on Linux');
    expect(browserName(SAFARI_IPHONE)).toBe('Safari on iOS');
    expect(browserName('')).toBe('');
    expect(browserName('   ')).toBe('');
  });
});

describe('accountEventLabel', () => {
  const label = (action: string, target = '', detail = '') => accountEventLabel({ action, target, detail });

  it('says each kind of event as a plain sentence', () => {
    expect(label('signin.new-address', '203.0.113.7', FIREFOX_LINUX)).toBe('Signed in from a new address (203.0.113.7, Firefox on Linux)');
    expect(label('signin', '198.51.100.4', FIREFOX_LINUX)).toBe('Signed in (198.51.100.4, Firefox on Linux)');
    expect(label('otp.on')).toBe('Turned two-factor sign-in on');
    expect(label('otp.off')).toBe('Turned two-factor sign-in off');
    expect(label('password.change', 'ada@example.com', '2 other sessions ended')).toBe('Changed the password (2 other sessions ended)');
    expect(label('password.change', 'ada@example.com')).toBe('Changed the password');
    expect(label('email.change.start', 'ada@example.com', 'ada@new.example')).toBe('Asked to change the email address to ada@new.example');
    expect(label('email.change', 'ada@example.com', 'ada@new.example')).toBe(
      'Changed the email address from ada@example.com to ada@new.example',
    );
  });

  it('leaves out what the server did not see, and keeps a program it cannot name as it came', () => {
    expect(label('signin.new-address', '203.0.113.7')).toBe('Signed in from a new address (203.0.113.7)');
    expect(label('signin.new-address', '203.0.113.7', 'portal-cli/1.0')).toBe('Signed in from a new address (203.0.113.7, portal-cli/1.0)');
    expect(label('signin.new-address')).toBe('Signed in from a new address');
  });

  it('has a sentence for every kind, and shows an unknown kind by its name', () => {
    for (const action of Object.keys(ACCOUNT_EVENTS)) expect(label(action)).toMatch(/^[A-Z][a-z]/);
    expect(label('something.new')).toBe('something.new');
  });
});
