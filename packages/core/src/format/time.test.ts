import { describe, expect, it } from 'vitest';
import { exactTime, relativeTime } from './time';

const now = new Date(2026, 10, 26, 12, 0, 0);
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe('relativeTime', () => {
  it('says how long ago, then the date', () => {
    expect(relativeTime(ago(10), now)).toBe('just now');
    expect(relativeTime(ago(44), now)).toBe('just now');
    expect(relativeTime(ago(3 * 60), now)).toBe('3 min ago');
    expect(relativeTime(ago(2 * 3600 + 100), now)).toBe('2 h ago');
    expect(relativeTime(ago(30 * 3600), now)).toBe('yesterday');
    expect(relativeTime(ago(5 * 86400), now)).toBe('5 days ago');
    expect(relativeTime(new Date(2026, 2, 3, 9), now)).toBe('Mar 3');
    expect(relativeTime(new Date(2025, 2, 3, 9), now)).toBe('Mar 3, 2025');
  });

  it('reads epoch seconds, ISO strings and future times', () => {
    expect(relativeTime(now.getTime() / 1000 - 180, now)).toBe('3 min ago');
    expect(relativeTime(ago(180).toISOString(), now)).toBe('3 min ago');
    expect(relativeTime(ago(-180), now)).toBe('in 3 min');
    expect(relativeTime(ago(-3 * 3600), now)).toBe('in 3 h');
    expect(relativeTime(ago(-30 * 3600), now)).toBe('tomorrow');
    expect(relativeTime(ago(-3 * 86400), now)).toBe('in 3 days');
  });

  it('gives a dash for what is not a time', () => {
    expect(relativeTime('not a date', now)).toBe('-');
    expect(relativeTime(Number.NaN, now)).toBe('-');
  });
});

describe('exactTime', () => {
  it('prints the time in the zone with its short name', () => {
    expect(exactTime(Date.UTC(2026, 10, 26, 5, 24, 6) / 1000, 'UTC')).toBe('2026-11-26 05:24:06 UTC');
    expect(exactTime('2026-11-26T05:24:06Z', 'America/New_York')).toBe('2026-11-26 00:24:06 EST');
  });

  it('falls back to UTC for an unknown zone and gives a dash for what is not a time', () => {
    expect(exactTime(Date.UTC(2026, 0, 2, 3, 4, 5) / 1000, 'Not/AZone')).toBe('2026-01-02 03:04:05 UTC');
    expect(exactTime('garbage')).toBe('-');
  });
});
