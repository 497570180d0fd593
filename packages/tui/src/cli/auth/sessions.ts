// `portal auth sessions`: list where you are signed in (created, last used, address, user agent); end one or every other.
import { time as formatTime } from '../common';
import { usageError } from '../errors';
import type { Session } from '../context';
import type { VerbOptions } from '../verb';

export const options: VerbOptions = {
  usage: 'sessions',
  summary: 'List where you are signed in (created, last used, address, user agent); end one or every other',
  flags: [
    { flags: '--end <id>', description: 'end the session with this ID (its token stops working at once)' },
    { flags: '--end-others', description: 'end every session but this one' },
  ],
  examples: ['portal auth sessions', 'portal auth sessions --end s_abc123', 'portal auth sessions --end-others'],
};

export interface SessionsOptions {
  end?: string;
  endOthers?: boolean;
}

export async function run(opts: SessionsOptions, s: Session): Promise<void> {
  if (opts.end !== undefined && opts.endOthers) throw usageError('Use --end ID or --end-others, not both');
  const api = await s.api();
  if (opts.end !== undefined) {
    const r = await api.calls.sessionEnd({ id: opts.end });
    s.out.done(r, `Ended session ${opts.end}`);
    return;
  }
  if (opts.endOthers) {
    const r = await api.calls.sessionEndOthers();
    s.out.done(r, r.ended === 1 ? 'Ended 1 other session' : `Ended ${r.ended} other sessions`);
    return;
  }
  const { session } = await api.calls.sessionList();
  s.out.list(
    session.list,
    [
      { header: 'ID', get: (x) => (x.current ? `${x.id} (this session)` : x.id) },
      { header: 'Created', get: (x) => formatTime(x.createdAt) },
      { header: 'Last used', get: (x) => formatTime(x.lastUsedAt) },
      { header: 'Address', get: (x) => x.address ?? '' },
      { header: 'User agent', get: (x) => x.userAgent ?? '' },
    ],
    'No sessions',
  );
}
