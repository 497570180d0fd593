// The client's audit log, newest first, a page at a time, filtered by member, action and dates (kept in the URL), and
// exported as CSV (owners only: others see the server's sentence).
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Button, Stack, TextField, Typography } from '@mui/material';
import { AUDIT_ACTIONS, auditActionLabel, csvFileName, TEAM_MESSAGES, type AuditEntry } from '@portal/core';
import { useAudit, useClient, useMembers, type AuditFilters } from '@portal/core/react';
import { ClientNotFound } from '../components/NotFound';
import { Page } from '../components/Page';
import { EntityTable, fromLoad } from '../components/EntityTable';
import { useCrumbNames } from '../layout/ChromeContext';
import { Time } from '../components/Time';
import { OlderNewer } from '../components/OlderNewer';
import { saveFile } from '../lib/saveFile';
import { notify } from '../lib/notify';
import { useUrlParams } from '../lib/useUrlParams';

/** A date field's "2026-11-26" as the local midnight it starts (epoch seconds); `end` gives the next midnight. */
function dayToEpoch(day: string, end = false): number | undefined {
  const m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(day);
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + (end ? 1 : 0));
  const s = Math.floor(d.getTime() / 1000);
  return Number.isFinite(s) && s >= 0 ? s : undefined;
}

/** The URL's names of the filters: ?actor=...&action=...&from=2026-11-01&to=2026-11-26 (dates as the fields show them). */
type FilterName = 'actor' | 'action' | 'from' | 'to';

export default function AuditPage() {
  const { clientId = '' } = useParams();
  const { params, set } = useUrlParams();
  const day = (k: 'from' | 'to') => params.get(k) ?? '';
  const fromUrl = (): Partial<AuditFilters> => ({
    actor: params.get('actor') ?? '',
    action: params.get('action') ?? '',
    from: dayToEpoch(day('from')),
    to: dayToEpoch(day('to'), true),
  });
  const audit = useAudit(clientId, undefined, fromUrl());
  const members = useMembers(clientId);
  const { client } = useClient(clientId);
  const [exporting, setExporting] = useState(false);
  useCrumbNames({ client: client?.name });
  const denied = audit.error?.status === 403 ? (audit.error.serverMessage ?? TEAM_MESSAGES.auditOwnersOnly) : null;

  const change = (k: FilterName, v: string) => {
    set({ [k]: v });
    if (k === 'from') audit.setFilters({ from: dayToEpoch(v) });
    else if (k === 'to') audit.setFilters({ to: dayToEpoch(v, true) });
    else audit.setFilters({ [k]: v });
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      saveFile(csvFileName('audit'), await audit.exportCsv(), 'text/csv');
    } catch (e) {
      console.warn('Audit export failed', e);
      notify(TEAM_MESSAGES.loadAudit, 'error');
    } finally {
      setExporting(false);
    }
  };
  const emails = [...new Set((members.data?.members ?? []).map((m) => m.user.email))].sort();
  // Native selects and date fields: their labels stay above the value (never over it), on phones too.
  const field = { size: 'small' as const, slotProps: { inputLabel: { shrink: true } } };

  if (members.missing) return <ClientNotFound />;
  return (
    <Page
      title="Audit Log"
      actions={
        !denied && (
          <Button variant="outlined" onClick={() => void exportCsv()} disabled={exporting || !audit.data}>
            Export CSV
          </Button>
        )
      }
    >
      {denied ? (
        <Typography role="alert">{denied}</Typography>
      ) : (
        <>
          <Stack direction="row" sx={{ gap: 1.5, flexWrap: 'wrap', mb: 2 }} role="search" aria-label="Audit filters">
            <TextField
              select
              {...field}
              label="Member"
              value={audit.filters.actor}
              onChange={(e) => change('actor', e.target.value)}
              sx={{ minWidth: 220, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
              slotProps={{ ...field.slotProps, select: { native: true } }}
            >
              <option value="">Everyone</option>
              {audit.filters.actor && !emails.includes(audit.filters.actor) && (
                <option value={audit.filters.actor}>{audit.filters.actor}</option>
              )}
              {emails.map((e) => (
                <option key={e} value={e}>
                  {e}
                </option>
              ))}
            </TextField>
            <TextField
              select
              {...field}
              label="Action"
              value={audit.action}
              onChange={(e) => change('action', e.target.value)}
              sx={{ minWidth: 220, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
              slotProps={{ ...field.slotProps, select: { native: true } }}
            >
              <option value="">All actions</option>
              {Object.entries(AUDIT_ACTIONS).map(([action, label]) => (
                <option key={action} value={action}>
                  {label}
                </option>
              ))}
            </TextField>
            <TextField {...field} type="date" label="From" value={day('from')} onChange={(e) => change('from', e.target.value)} />
            <TextField {...field} type="date" label="To" value={day('to')} onChange={(e) => change('to', e.target.value)} />
          </Stack>
          <EntityTable<AuditEntry>
            label="Audit log"
            rows={audit.data?.entries}
            {...fromLoad(audit, TEAM_MESSAGES.loadAudit)}
            rowKey={(e) => `${e.at}-${e.action}-${e.target}-${e.actor.stamp}-${e.detail}`}
            empty={TEAM_MESSAGES.noAudit}
            filter={false}
            columns={[
              { id: 'at', label: 'When', nowrap: true, truncate: false, value: (e) => e.at, render: (e) => <Time at={e.at} /> },
              { id: 'actor', label: 'Who', value: (e) => e.actor.email, truncate: true },
              { id: 'action', label: 'Action', value: (e) => auditActionLabel(e.action) },
              { id: 'target', label: 'Target', value: (e) => e.target, truncate: true },
              { id: 'detail', label: 'Detail', value: (e) => e.detail, truncate: true },
            ]}
          />
          <OlderNewer log={audit} />
        </>
      )}
    </Page>
  );
}
