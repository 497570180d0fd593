import { describe, expect, it } from 'vitest';
import { MORE_KEYS, appHelp, fitHelp, packHelp } from './help';

describe('fitHelp', () => {
  const parts = ['↑↓ move', 'Enter open', '/ filter', 'n create', 'r rename', 'd remove', 'Tab/Ctrl+O menu', 'Esc back', 'q quit'];
  it('keeps the whole line when it fits', () => {
    expect(fitHelp(parts, 200)).toEqual({ line: parts.join(' · '), folded: false });
  });
  it('folds to the keys that fit and "? more keys", never wider than the terminal', () => {
    for (const width of [80, 60, 40, 20, 11, 5]) {
      const { line, folded } = fitHelp(parts, width);
      expect(folded).toBe(true);
      expect([...line].length).toBeLessThanOrEqual(width);
      if (width >= MORE_KEYS.length) expect(line.endsWith(MORE_KEYS)).toBe(true);
    }
    expect(fitHelp(parts, 45).line).toBe('↑↓ move · Enter open · / filter · ? more keys');
  });
});

describe('appHelp', () => {
  it('adds the menu, Esc back and quitting after the screen keys', () => {
    expect(appHelp(['↑↓ move'], true, 'none')).toEqual(['↑↓ move', 'Tab/Ctrl+O menu', 'Esc back', 'q quit']);
  });
  it('leaves Esc to the screen when it says what Esc does there (an open form cancels)', () => {
    expect(appHelp(['Enter submit', 'Esc cancel'], true, 'text')).toEqual(['Enter submit', 'Esc cancel', 'Ctrl+O menu', 'Ctrl+C quit']);
  });
});

describe('packHelp', () => {
  it('puts every part on lines inside the width, never splitting one', () => {
    const parts = ['↑↓ move', 'Enter open', '/ filter', 'n create', 'r rename', 'd remove', 'Tab/Ctrl+O menu', 'Esc back', 'q quit'];
    const lines = packHelp(parts, 30);
    expect(lines.every((l) => [...l].length <= 30)).toBe(true);
    expect(lines.join(' · ').split(' · ')).toEqual(parts);
    expect(packHelp(['x'.repeat(40)], 10)).toEqual([`${'x'.repeat(9)}…`]);
  });
});
