// Compare Plans: Individual versus Enterprise, the current plan's badge, and the upgrade button on Individual.
import { useSearchParams } from 'react-router-dom';
import { Box, Button, Chip, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { CONTACT_PATH, PLAN_LIMITS, PLAN_TABLE_ROWS, PLANS } from '@portal/core';
import { Page } from '../components/Page';
import { useChrome } from '../layout/ChromeContext';

export default function PlanPage() {
  const { clients } = useChrome();
  const [search] = useSearchParams();
  const wanted = search.get('client');
  const client = clients?.find((c) => c.stamp === wanted) ?? clients?.[0];
  const current = client?.plan;
  return (
    <Page
      title="Compare Plans"
      actions={
        current === 'Individual' && (
          <Button variant="contained" href={CONTACT_PATH} target="_blank" rel="noopener">
            Upgrade to Enterprise
          </Button>
        )
      }
    >
      {client && (
        <Typography sx={{ mb: 2 }}>
          {client.name} is on the <strong>{current}</strong> plan.
        </Typography>
      )}
      <TableContainer sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label="Plan comparison table">
        {/* Narrower cells on phones, so both plans fit beside the feature names at 360 px. */}
        <Table
          aria-label="Plan comparison"
          sx={{
            '& th, & td': { px: { xs: 0.75, sm: 2 }, py: { xs: 1, sm: 1.5 }, fontSize: { xs: '0.8125rem', sm: '0.875rem' } },
            '& .MuiChip-label': { px: { xs: 0.75, sm: 1 } },
          }}
        >
          <TableHead>
            <TableRow>
              <TableCell>Feature</TableCell>
              {PLANS.map((p) => (
                <TableCell key={p}>
                  <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                    <span>{p}</span>
                    {PLAN_LIMITS[p].label !== p && <Chip size="small" variant="outlined" label={PLAN_LIMITS[p].label} />}
                    {current === p && <Chip size="small" color="primary" label="Current plan" />}
                  </Stack>
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {PLAN_TABLE_ROWS.map(([key, label]) => (
              <TableRow key={key}>
                <TableCell component="th" scope="row">
                  {label}
                </TableCell>
                {PLANS.map((p) => (
                  <TableCell key={p}>{PLAN_LIMITS[p].table[key]}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Box sx={{ mt: 2 }}>
        <Typography variant="body2" color="text.secondary">
          Enterprise limits are initial limits: contact us for an increase at no cost.
        </Typography>
      </Box>
    </Page>
  );
}
