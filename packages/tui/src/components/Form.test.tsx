// A form's keys in the real UI (the sign-up form, signed out): Enter moves to the next empty required field and
// submits once none is left, readline's keys edit a field, and a long value scrolls within its line.
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@portal/core';
import type { TestApi } from '@portal/testkit/api';
import { KEY, renderUi } from '../../test/ui';
import { fitLine } from './TextField';
import { applyInput, wordStart } from './textEdit';

// Nothing is sent before the form is whole: no server is needed.
const offline = { url: 'http://127.0.0.1:9' } as TestApi;
const CTRL = { a: '\u0001', e: '\u0005', k: '\u000b', u: '\u0015', w: '\u0017' } as const;
/** The focused field's line. */
const focused = (frame: string | undefined) => frame?.split('\n').find((l) => l.includes('›')) ?? '';

describe('Form keys', () => {
  it('Enter moves to the next empty required field, back to an earlier one left empty, and submits when none is', async () => {
    const ui = renderUi(offline, '/signup', { signedIn: false, size: { columns: 80, rows: 24 } });
    await ui.see('Company name');
    await ui.type('ada@example.com', KEY.enter);
    expect(focused(ui.lastFrame())).toContain('Username');
    // Username left empty: Enter on Company name goes on to Password, then from Confirm back to Username.
    await ui.type(KEY.down, 'Engines', KEY.enter);
    expect(focused(ui.lastFrame())).toContain('Password');
    await ui.type('Secret-123!', KEY.enter, 'Secret-123!', KEY.enter);
    expect(focused(ui.lastFrame())).toContain('Username');
    expect(ui.lastFrame()).not.toContain(MESSAGES.fillAllFields);
    // Every text field filled: Enter submits (the unticked terms are what is left to fix).
    await ui.type('ada', KEY.enter);
    await ui.see(MESSAGES.terms);
    ui.unmount();
  });

  it('readline keys edit the field: Ctrl+W a word, Ctrl+A/E move, Ctrl+K and Ctrl+U cut', async () => {
    const ui = renderUi(offline, '/signup', { signedIn: false, size: { columns: 80, rows: 24 } });
    await ui.see('Company name');
    await ui.type(KEY.tab, KEY.tab, 'Analytical Engines Ltd', CTRL.w);
    expect(focused(ui.lastFrame())).toMatch(/Company name: Analytical Engines\s*$/);
    await ui.type(CTRL.a, 'The ', CTRL.e, '!');
    expect(focused(ui.lastFrame())).toContain('Company name: The Analytical Engines !');
    await ui.type(CTRL.a, CTRL.k);
    expect(focused(ui.lastFrame())).toMatch(/Company name:\s*$/);
    await ui.type('first/path.json', CTRL.u, 'b.json');
    expect(focused(ui.lastFrame())).toContain('Company name: b.json');
    ui.unmount();
  });

  it('a long value scrolls within its line at 80 columns, the cursor in view, never wrapping', async () => {
    const ui = renderUi(offline, '/signup', { signedIn: false, size: { columns: 80, rows: 24 } });
    await ui.see('Company name');
    const long = `${'x'.repeat(100)}END`;
    await ui.type(long);
    const line = focused(ui.lastFrame());
    expect(line).toContain('Email: …');
    expect(line).toContain('END');
    expect([...line.trimEnd()].length).toBeLessThanOrEqual(80);
    ui.unmount();
  });
});

describe('the line editing rules', () => {
  it('Ctrl+W deletes the word before the cursor with the spaces after it', () => {
    expect(wordStart('cp a.json  ', 11)).toBe(3);
    expect(applyInput({ value: 'one two', cursor: 7 }, 'w', { ctrl: true }).state).toEqual({ value: 'one ', cursor: 4 });
    expect(applyInput({ value: 'one two', cursor: 3 }, 'k', { ctrl: true }).state).toEqual({ value: 'one', cursor: 3 });
  });

  it('fitLine keeps the cursor in view with an ellipsis where text is cut', () => {
    expect(fitLine('short', 5, 20)).toEqual({ before: 'short', cursor: ' ', after: '' });
    const end = fitLine('abcdefghij', 10, 6);
    expect(end.before + end.cursor + end.after).toBe('…ghij ');
    const start = fitLine('abcdefghij', 0, 6);
    expect(start.before + start.cursor + start.after).toBe('abcde…');
    const mid = fitLine('abcdefghij', 5, 6);
    expect((mid.before + mid.cursor + mid.after).length).toBe(6);
    expect(mid.cursor).toBe('f');
  });
});
