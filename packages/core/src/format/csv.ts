// CSV exports (RFC 4180) of what the audit and usage screens show: the same columns from every door.
import type { AuditEntry, UsageDay } from '../contract';
import type { UsageProject } from '../contract/table';
import { auditActionLabel } from '../rules/team';

type Cell = string | number | null | undefined;

/**
 * One cell: quoted when it holds a comma, quote or line break. Text a spreadsheet would run as a formula (starting
 * with =, +, -, @, tab or carriage return) is kept as text with a leading apostrophe: names come from users.
 */
function cell(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line and rows, lines ended with CRLF as RFC 4180 writes them. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<Cell>>): string {
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();
const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The audit log as CSV: time in UTC (ISO 8601), who, the action's code and words, target and detail. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  return toCsv(
    ['time_utc', 'actor', 'action', 'action_label', 'target', 'detail'],
    entries.map((e) => [iso(e.at), e.actor.email, e.action, auditActionLabel(e.action), e.target, e.detail]),
  );
}

/** Usage per UTC day as CSV (amounts in dollars). */
export function usageDaysCsv(days: readonly UsageDay[]): string {
  return toCsv(
    ['date', 'fits', 'generates', 'shrinks', 'input_parameters', 'amount_usd'],
    days.map((d) => [d.date, d.fits, d.generates, d.shrinks, d.parameters, dollars(d.cents)]),
  );
}

/** Usage per project as CSV (amounts in dollars). */
export function usageProjectsCsv(projects: readonly UsageProject[]): string {
  return toCsv(
    ['project', 'project_id', 'fits', 'generates', 'shrinks', 'input_parameters', 'amount_usd'],
    projects.map((p) => [p.name, p.bucket, p.fits, p.generates, p.shrinks, p.parameters, dollars(p.cents)]),
  );
}

/** A file name for an export: `audit_2026-11-26.csv`. */
export const csvFileName = (what: string, now: Date = new Date()) => `${what}_${now.toISOString().slice(0, 10)}.csv`;
