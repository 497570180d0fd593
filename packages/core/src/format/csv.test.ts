import { describe, expect, it } from 'vitest';
import { auditCsv, toCsv, usageProjectsCsv } from './csv';

describe('CSV exports', () => {
  it('quotes commas, quotes and line breaks, and keeps formulas as text', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['line\nbreak', 3],
          ['=HYPERLINK("x")', -2],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n"line\nbreak",3\r\n"\'=HYPERLINK(""x"")",-2\r\n');
  });

  it('writes the audit log with UTC times and the action in words', () => {
    const csv = auditCsv([
      { at: 0, actor: { stamp: 'u_1', email: 'a@example.com' }, action: 'member.invite', target: 'b@example.com', detail: 'member' },
    ]);
    expect(csv.split('\r\n')[1]).toBe('1970-01-01T00:00:00.000Z,a@example.com,member.invite,Invited a member,b@example.com,member');
  });

  it('writes usage per project with dollars', () => {
    const csv = usageProjectsCsv([{ bucket: 'b_1', name: 'Field', fits: 1, generates: 2, shrinks: 0, parameters: 300, cents: 22 }]);
    expect(csv.split('\r\n')[1]).toBe('Field,b_1,1,2,0,300,0.22');
  });
});
