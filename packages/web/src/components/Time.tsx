// A time as people read it: relative ("3 min ago") in a <time datetime>, the exact local time and zone on hover and focus.
import { useEffect, useState } from 'react';
import { Tooltip } from '@mui/material';
import { exactTime, relativeTime } from '@portal/core';

/** Redraws every minute so "just now" becomes "1 min ago" without a reload. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const t = window.setInterval(() => setNow(new Date()), 60_000);
    return () => window.clearInterval(t);
  }, []);
  return now;
}

/** `at` in epoch seconds (the API's unit); an empty time shows "-". */
export function Time({ at }: { at: number | null | undefined }) {
  const now = useMinuteClock();
  if (at === null || at === undefined || !Number.isFinite(at) || at <= 0) return <>-</>;
  const exact = exactTime(at);
  return (
    <Tooltip title={exact} describeChild>
      <time dateTime={new Date(at * 1000).toISOString()} tabIndex={0} style={{ whiteSpace: 'nowrap' }}>
        {relativeTime(at, now)}
      </time>
    </Tooltip>
  );
}
