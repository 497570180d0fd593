// Compare Plans: Individual versus Enterprise, the current plan's badge, and the upgrade (Individual only).
import { Box, Text, useInput } from 'ink';
import { CONTACT_PATH, PLAN_LIMITS, PLAN_TABLE_ROWS, PLANS, upgradeTarget, printable } from '@portal/core';
import { useNotify, usePermissions } from '@portal/core/react';
import { Table } from '../components/Table';
import { useNav } from '../ui/context';

export default function PlanScreen() {
  const nav = useNav();
  const notify = useNotify();
  const perms = usePermissions();
  const clientId = Object.keys(nav.labels).find((id) => perms.data?.some((p) => p.client.stamp === id));
  const client = perms.data?.find((p) => p.client.stamp === clientId)?.client ?? perms.data?.[0]?.client;
  const current = client?.plan;
  const contact = `${nav.io.baseUrl}${CONTACT_PATH}`;
  // No upgrade is offered on the top plan (core's rule).
  const upgrade = upgradeTarget(current);
  useInput(
    (input) => {
      if (input === 'u' && upgrade) notify(`Upgrade to ${upgrade}: contact us at ${contact}`);
    },
    { isActive: !nav.menuFocused },
  );
  const rows = PLAN_TABLE_ROWS.map(([key, label]) => ({ label, values: PLANS.map((p) => PLAN_LIMITS[p].table[key]) }));
  return (
    <Box flexDirection="column">
      <Text bold>Compare Plans</Text>
      {client ? (
        <Text>
          {printable(client.name)} is on the {current} plan.
        </Text>
      ) : null}
      <Table<{ label: string; values: string[] }>
        rows={rows}
        keyOf={(r) => r.label}
        cols={[
          { header: 'Feature', get: (r) => r.label },
          ...PLANS.map((p, i) => ({
            header: `${p}${p === 'Individual' ? ` (${PLAN_LIMITS[p].label})` : ''}${p === current ? ' ✔ Current plan' : ''}`,
            get: (r: { values: string[] }) => r.values[i],
            max: 40,
          })),
        ]}
      />
      <Text dimColor>Enterprise limits are initial limits: contact us for an increase at no cost.</Text>
      {upgrade ? (
        <Text color="cyan">
          [ Upgrade to {upgrade} ] press u: {contact}
        </Text>
      ) : null}
    </Box>
  );
}
