// Times for people: relative ("3 min ago") where a glance is enough, exact (with its zone) where it is not.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A time given as epoch seconds (the API's unit), an ISO string or a Date; null when it is not a time. */
function toDate(at: string | number | Date): Date | null {
  const d = at instanceof Date ? at : typeof at === 'number' ? new Date(at * 1000) : new Date(at);
  return Number.isFinite(d.getTime()) ? d : null;
}

/**
 * How long ago (or ahead) a time is, for tables and lists: 'just now' (under 45 s), '3 min ago', '2 h ago',
 * 'yesterday', '5 days ago' (under 7 days), then the date: 'Mar 3' in the current year, 'Mar 3, 2025' otherwise.
 * Future times read 'in 3 min', 'in 2 h', 'tomorrow', 'in 5 days'. Something that is not a time gives '-'.
 */
export function relativeTime(at: string | number | Date, now: Date = new Date()): string {
  const d = toDate(at);
  if (!d) return '-';
  const seconds = Math.round((now.getTime() - d.getTime()) / 1000);
  const ahead = seconds < 0;
  const s = Math.abs(seconds);
  const say = (amount: string) => (ahead ? `in ${amount}` : `${amount} ago`);
  if (s < 45) return 'just now';
  if (s < HOUR) return say(`${Math.max(1, Math.round(s / MINUTE))} min`);
  if (s < DAY) return say(`${Math.floor(s / HOUR)} h`);
  if (s < 2 * DAY) return ahead ? 'tomorrow' : 'yesterday';
  if (s < 7 * DAY) return say(`${Math.floor(s / DAY)} days`);
  const day = `${MONTHS[d.getMonth()]} ${d.getDate()}`;
  return d.getFullYear() === now.getFullYear() ? day : `${day}, ${d.getFullYear()}`;
}

const exactFormats = new Map<string, Intl.DateTimeFormat>();

function exactFormat(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = exactFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
    });
    exactFormats.set(key, format);
  }
  return format;
}

/**
 * The exact time with its zone, '2026-11-26 05:24:06 UTC', in the given IANA zone (else the local one). An unknown
 * zone falls back to UTC rather than failing; something that is not a time gives '-'.
 */
export function exactTime(at: string | number | Date, timeZone?: string): string {
  const d = toDate(at);
  if (!d) return '-';
  let format: Intl.DateTimeFormat;
  try {
    format = exactFormat(timeZone);
  } catch {
    format = exactFormat('UTC');
  }
  const part: Record<string, string> = {};
  for (const p of format.formatToParts(d)) part[p.type] = p.value;
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second} ${part.timeZoneName}`;
}
