// The one set of SQL migrations, run at start on the embedded database and on PostgreSQL alike.
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema';

export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    id: 1,
    sql: `
create table users (
  stamp text primary key,
  email text not null,
  username text not null,
  password_hash text not null,
  created_at bigint not null
);
create unique index users_email on users (lower(email));
create unique index users_username on users (lower(username));
create table clients (
  stamp text primary key,
  name text not null,
  plan text not null,
  choice text not null,
  active integer not null default 1,
  credit_total bigint not null,
  credit_used bigint not null default 0,
  created_at bigint not null
);
create table permissions (
  user_stamp text not null references users(stamp),
  client_stamp text not null references clients(stamp),
  created_at bigint not null,
  primary key (user_stamp, client_stamp)
);
create index permissions_client on permissions (client_stamp);
create table apikeys (
  clue text primary key,
  client text not null references clients(stamp),
  name text not null,
  token_enc text not null,
  token_hash text not null unique,
  installs integer not null default 0,
  installed_at bigint,
  active integer not null default 1,
  created_at bigint not null
);
create index apikeys_client on apikeys (client);
create table integrations (
  clue text primary key,
  client text not null references clients(stamp),
  name text not null,
  service text not null,
  token_enc text not null,
  runs integer not null default 0,
  run_at bigint,
  active integer not null default 1,
  created_at bigint not null
);
create index integrations_client on integrations (client);
create table buckets (
  stamp text primary key,
  client text not null references clients(stamp),
  name text not null,
  active integer not null default 1,
  created_at bigint not null
);
create index buckets_client on buckets (client, active);
create table rends (
  stamp text primary key,
  bucket text not null references buckets(stamp),
  name text not null,
  flight text not null,
  active integer not null default 1,
  created_at bigint not null
);
create index rends_bucket on rends (bucket, active);
create table uploads (
  stamp text primary key,
  rend text not null references rends(stamp),
  name text not null,
  state text not null,
  checksum text not null,
  file_name text not null,
  size bigint not null,
  proc integer not null default 0,
  cols bigint,
  rows bigint,
  inputs bigint,
  meta_error text,
  error text,
  stored integer not null default 0,
  created_at bigint not null
);
create index uploads_rend on uploads (rend);
create table boxes (
  stamp text primary key,
  rend text not null references rends(stamp),
  run text,
  name text not null,
  size bigint not null,
  storage_key text not null,
  created_at bigint not null
);
create index boxes_rend on boxes (rend);
create table piles (
  stamp text primary key,
  bucket text not null references buckets(stamp),
  variety text not null,
  param text not null,
  created_at bigint not null
);
create table runs (
  stamp text primary key,
  bucket text not null references buckets(stamp),
  rend text references rends(stamp),
  pile text,
  fit text,
  quote text,
  model text,
  name text not null,
  "desc" text not null default '',
  function text not null,
  state text not null,
  message text not null default '',
  result_key text,
  inputs bigint not null default 0,
  active integer not null default 1,
  created_at bigint not null
);
create index runs_bucket on runs (bucket, active);
create index runs_rend on runs (rend);
create table models (
  stamp text primary key,
  bucket text references buckets(stamp),
  rend text,
  run text,
  name text not null,
  "desc" text not null default '',
  state text not null,
  message text not null default '',
  data text,
  active integer not null default 1,
  created_at bigint not null
);
create index models_bucket on models (bucket, active);
create table quotes (
  stamp text primary key,
  bucket text not null references buckets(stamp),
  rend text,
  pile text,
  run text,
  name text not null,
  "desc" text not null default '',
  function text not null,
  state text not null,
  message text not null default '',
  cent bigint not null,
  invoice_num text not null unique,
  inputs bigint not null default 0,
  active integer not null default 1,
  created_at bigint not null,
  paid_at bigint
);
create index quotes_bucket on quotes (bucket);
create table jobs (
  id bigserial primary key,
  kind text not null,
  ref text not null,
  state text not null,
  attempts integer not null default 0,
  run_after bigint not null,
  locked_until bigint,
  error text,
  created_at bigint not null
);
create index jobs_queue on jobs (state, run_after);
create table reset_tokens (
  jti text primary key,
  user_stamp text not null,
  expires_at bigint not null,
  used_at bigint
);
create table settings (
  key text primary key,
  value text not null
);
insert into models (stamp, bucket, name, "desc", state, message, active, created_at) values
  ('general-tabular-regression', null, 'Tabular regression (general)', 'Embeds numeric rows for regression targets; trained on public tabular data sets.', 'Finished', '', 1, 1767225600),
  ('general-tabular-classification', null, 'Tabular classification (general)', 'Embeds numeric rows for class targets; trained on public tabular data sets.', 'Finished', '', 1, 1767225600);
`,
  },
  {
    id: 2,
    sql: `
create table rate_limits (
  key text primary key,
  window_start bigint not null,
  count integer not null
);
`,
  },
  {
    id: 3,
    // The project list is the hottest read: its request and upload counts live on the project row, kept by
    // triggers in the same transaction as every write to runs and rends (whichever code path makes it), so the
    // list is one index scan with no per-project counting.
    sql: `
alter table buckets add column run_count integer not null default 0;
alter table buckets add column rend_count integer not null default 0;
update buckets b set
  run_count = (select count(*) from runs r where r.bucket = b.stamp and r.active = 1),
  rend_count = (select count(*) from rends d where d.bucket = b.stamp and d.active = 1);
create function portal_count_runs() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.active = 1 then
    update buckets set run_count = run_count - 1 where stamp = old.bucket;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.active = 1 then
    update buckets set run_count = run_count + 1 where stamp = new.bucket;
  end if;
  return null;
end $$;
create trigger runs_count after insert or delete or update of active, bucket on runs
  for each row execute function portal_count_runs();
create function portal_count_rends() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.active = 1 then
    update buckets set rend_count = rend_count - 1 where stamp = old.bucket;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.active = 1 then
    update buckets set rend_count = rend_count + 1 where stamp = new.bucket;
  end if;
  return null;
end $$;
create trigger rends_count after insert or delete or update of active, bucket on rends
  for each row execute function portal_count_rends();
drop index buckets_client;
create index buckets_client on buckets (client, active, created_at, stamp) include (name, run_count, rend_count);
`,
  },
  {
    id: 4,
    // Rows made in the same second (files sent together, a script creating projects) list in the order they were
    // made: \`created_at\` counts whole seconds (SPEC's epoch times), and the random stamp used to break ties.
    sql: `
alter table clients add column seq bigint generated always as identity;
alter table buckets add column seq bigint generated always as identity;
alter table rends add column seq bigint generated always as identity;
alter table uploads add column seq bigint generated always as identity;
alter table boxes add column seq bigint generated always as identity;
alter table runs add column seq bigint generated always as identity;
alter table models add column seq bigint generated always as identity;
alter table quotes add column seq bigint generated always as identity;
alter table apikeys add column seq bigint generated always as identity;
alter table integrations add column seq bigint generated always as identity;
drop index buckets_client;
create index buckets_client on buckets (client, active, created_at, seq) include (stamp, name, run_count, rend_count);
`,
  },
  {
    id: 5,
    // Jobs carry their client and when they were started (milliseconds), so a worker can share its slots fairly
    // between clients (fewest running first, then the one served longest ago), and their owner (the worker holding
    // the lease), so a worker whose lease was taken over cannot overwrite the new holder's work.
    sql: `
alter table jobs add column if not exists client text;
alter table jobs add column if not exists owner text;
alter table jobs add column if not exists started_at bigint;
update jobs set client = coalesce(
  (select b.client from uploads u join rends r on r.stamp = u.rend join buckets b on b.stamp = r.bucket where u.stamp = jobs.ref),
  (select b.client from runs r join buckets b on b.stamp = r.bucket where r.stamp = jobs.ref))
where client is null;
create index if not exists jobs_running_client on jobs (client) where state = 'running';
create index if not exists jobs_lease on jobs (locked_until) where state = 'running';
create index if not exists jobs_client_started on jobs (client, started_at);
`,
  },
  {
    id: 6,
    // Sessions that can be ended (logout, password reset), checked on every call by every API process; and a
    // per-key installer secret, so only members can make a download that counts as an install.
    sql: `
create table if not exists sessions (
  id text primary key,
  user_stamp text not null references users(stamp),
  created_at bigint not null,
  expires_at bigint not null,
  ended_at bigint
);
create index if not exists sessions_user on sessions (user_stamp);
alter table apikeys add column if not exists install_secret text;
update apikeys set install_secret = replace(gen_random_uuid()::text, '-', '') || replace(gen_random_uuid()::text, '-', '')
  where install_secret is null;
alter table apikeys alter column install_secret set not null;
`,
  },
  {
    id: 7,
    // Stored bytes: `sealing_until` lets one request at a time take an item's uploaded bytes (S3: copy and check);
    // `ended_at` is when an item failed or its upload or project was removed, set by triggers whichever code path
    // does it, so the storage sweep knows when its grace period started; `swept_at` when its objects were deleted.
    sql: `
alter table uploads add column sealing_until bigint;
alter table uploads add column ended_at bigint;
alter table uploads add column swept_at bigint;
update uploads set ended_at = extract(epoch from now())::bigint
  where state = 'Failed'
     or rend in (select d.stamp from rends d join buckets b on b.stamp = d.bucket where d.active = 0 or b.active = 0);
create index uploads_unswept on uploads (ended_at) where swept_at is null and ended_at is not null;
create function portal_upload_failed() returns trigger language plpgsql as $$
begin
  if new.state = 'Failed' and new.ended_at is null then
    new.ended_at := extract(epoch from now())::bigint;
  end if;
  return new;
end $$;
create trigger uploads_failed before insert or update of state on uploads
  for each row execute function portal_upload_failed();
create function portal_rend_removed() returns trigger language plpgsql as $$
begin
  if old.active = 1 and new.active = 0 then
    update uploads set ended_at = extract(epoch from now())::bigint where rend = new.stamp and ended_at is null;
  end if;
  return null;
end $$;
create trigger rends_removed after update of active on rends
  for each row execute function portal_rend_removed();
create function portal_bucket_removed() returns trigger language plpgsql as $$
begin
  if old.active = 1 and new.active = 0 then
    update uploads set ended_at = extract(epoch from now())::bigint
      where ended_at is null and rend in (select stamp from rends where bucket = new.stamp);
  end if;
  return null;
end $$;
create trigger buckets_removed after update of active on buckets
  for each row execute function portal_bucket_removed();
`,
  },
  {
    id: 8,
    // Each worker's heartbeat, so readiness can say whether any worker takes jobs (seen within 30 s).
    sql: `
create table if not exists workers (
  id text primary key,
  host text not null,
  pid integer not null,
  slots integer not null,
  started_at bigint not null,
  seen_at bigint not null
);
create index if not exists workers_seen on workers (seen_at);
-- The request that queued a job, so the worker's log lines name it (joined to the API's access line by reqId).
alter table jobs add column if not exists request_id text;
-- Durable mail: a mail is kept until sent (its text encrypted), and retried from the job queue when sending fails.
create table if not exists mails (
  id text primary key,
  to_addr text not null,
  subject text not null,
  body_enc text not null,
  attempts integer not null default 0,
  created_at bigint not null,
  sent_at bigint,
  last_error text
);
`,
  },
  {
    id: 9,
    // Teams: a role per membership (the earliest member of each existing client becomes its owner, and the audit log
    // says so), invitations (the link's token kept only as a hash), and the audit log, newest first by its sequence.
    sql: `
alter table permissions add column if not exists role text not null default 'member';
create table if not exists audit (
  seq bigint generated always as identity primary key,
  client text not null,
  at bigint not null,
  actor_stamp text not null,
  actor_email text not null,
  action text not null,
  target text not null default '',
  detail text not null default ''
);
create index if not exists audit_client on audit (client, seq desc);
create index if not exists audit_client_action on audit (client, action, seq desc);
create index if not exists audit_at on audit (at);
with firsts as (
  select distinct on (p.client_stamp) p.client_stamp, p.user_stamp
  from permissions p
  order by p.client_stamp, p.created_at, p.user_stamp
)
update permissions p set role = 'owner' from firsts f where p.client_stamp = f.client_stamp and p.user_stamp = f.user_stamp;
insert into audit (client, at, actor_stamp, actor_email, action, target, detail)
  select p.client_stamp, extract(epoch from now())::bigint, 'operator', 'operator', 'member.role', u.email,
    'owner (the earliest member, when roles were introduced)'
  from permissions p join users u on u.stamp = p.user_stamp where p.role = 'owner';
create table if not exists invites (
  stamp text primary key,
  client text not null references clients(stamp),
  email text not null,
  role text not null,
  token_hash text not null unique,
  invited_by text not null,
  created_at bigint not null,
  expires_at bigint not null,
  used_at bigint,
  used_by text,
  withdrawn_at bigint
);
create index if not exists invites_pending on invites (client, created_at) where used_at is null and withdrawn_at is null;
`,
  },
  {
    id: 10,
    // Run insight: when a run started and settled, and its event log (state changes, progress, sentences). Every
    // state change is recorded by a trigger, in the same transaction as the change, whichever process makes it.
    sql: `
alter table runs add column if not exists started_at bigint;
alter table runs add column if not exists finished_at bigint;
create table if not exists run_events (
  seq bigserial primary key,
  run text not null,
  at bigint not null,
  kind text not null,
  message text not null,
  data text
);
create index if not exists run_events_run on run_events (run, seq);
create index if not exists runs_created on runs (bucket, created_at);
create or replace function portal_run_state_event() returns trigger language plpgsql as $fn$
declare
  t bigint := floor(extract(epoch from clock_timestamp()))::bigint;
begin
  if tg_op = 'INSERT' or new.state is distinct from old.state then
    if new.state = 'Processing' and new.started_at is null then new.started_at := t; end if;
    if new.state in ('Finished', 'Failed') and new.finished_at is null then
      new.finished_at := t;
      if new.started_at is null then new.started_at := t; end if;
    end if;
    insert into run_events (run, at, kind, message, data) values (
      new.stamp, t, 'state',
      case when new.state = 'Failed' and new.message <> '' then 'Failed: ' || new.message else new.state end,
      json_build_object('state', new.state)::text
    );
  end if;
  return new;
end
$fn$;
drop trigger if exists runs_state_event on runs;
create trigger runs_state_event before insert or update of state on runs for each row execute function portal_run_state_event();
`,
  },
  {
    id: 11,
    // Teams that hold under concurrency, and one email normal form. Emails compare as lower(normalize(email, NFKC)),
    // the same steps as core's emailKey: unique for accounts (a plain index where look-alikes were already stored),
    // and one pending invitation per client and address. An invitation whose sender is no longer an owner, and all
    // but the newest of several pending ones to one address, are withdrawn. A client with members always has an owner:
    // where one has none (stored before roles were checked) its earliest member becomes one, and a deferred trigger
    // refuses any change that leaves members without an owner.
    sql: `
do $do$
begin
  if exists (select 1 from users group by lower(normalize(email, NFKC)) having count(*) > 1) then
    create index if not exists users_email_key on users (lower(normalize(email, NFKC)));
  else
    create unique index if not exists users_email_key on users (lower(normalize(email, NFKC)));
  end if;
end
$do$;
update invites i set withdrawn_at = extract(epoch from now())::bigint
  where i.used_at is null and i.withdrawn_at is null and (
    not exists (select 1 from permissions p where p.client_stamp = i.client and p.user_stamp = i.invited_by and p.role = 'owner')
    or exists (
      select 1 from invites j
      where j.client = i.client and j.used_at is null and j.withdrawn_at is null
        and lower(normalize(j.email, NFKC)) = lower(normalize(i.email, NFKC))
        and (j.created_at, j.stamp) > (i.created_at, i.stamp)));
create unique index if not exists invites_one_pending on invites (client, lower(normalize(email, NFKC)))
  where used_at is null and withdrawn_at is null;
with firsts as (
  select distinct on (p.client_stamp) p.client_stamp, p.user_stamp
  from permissions p
  where not exists (select 1 from permissions o where o.client_stamp = p.client_stamp and o.role = 'owner')
  order by p.client_stamp, p.created_at, p.user_stamp
)
update permissions p set role = 'owner' from firsts f where p.client_stamp = f.client_stamp and p.user_stamp = f.user_stamp;
create or replace function portal_client_keeps_owner() returns trigger language plpgsql as $fn$
declare
  c text := case when tg_op = 'INSERT' then new.client_stamp else old.client_stamp end;
begin
  if exists (select 1 from permissions where client_stamp = c)
     and not exists (select 1 from permissions where client_stamp = c and role = 'owner') then
    raise exception 'client % would have members but no owner', c using errcode = '23514', constraint = 'client_keeps_owner';
  end if;
  return null;
end
$fn$;
drop trigger if exists client_keeps_owner on permissions;
create constraint trigger client_keeps_owner after insert or update or delete on permissions
  deferrable initially deferred for each row execute function portal_client_keeps_owner();
`,
  },
  {
    id: 12,
    // Request ids on run events: each event names the request that started its work. The worker writes the id of
    // the job's request; a state change takes the id of the run's newest job (the queue stamps the events written
    // before its job existed, e.g. Pending).
    sql: `
alter table run_events add column if not exists request_id text;
create index if not exists jobs_ref on jobs (ref);
create or replace function portal_run_state_event() returns trigger language plpgsql as $fn$
declare
  t bigint := floor(extract(epoch from clock_timestamp()))::bigint;
begin
  if tg_op = 'INSERT' or new.state is distinct from old.state then
    if new.state = 'Processing' and new.started_at is null then new.started_at := t; end if;
    if new.state in ('Finished', 'Failed') and new.finished_at is null then
      new.finished_at := t;
      if new.started_at is null then new.started_at := t; end if;
    end if;
    insert into run_events (run, at, kind, message, data, request_id) values (
      new.stamp, t, 'state',
      case when new.state = 'Failed' and new.message <> '' then 'Failed: ' || new.message else new.state end,
      json_build_object('state', new.state)::text,
      (select j.request_id from jobs j where j.ref = new.stamp order by j.created_at desc, j.id desc limit 1)
    );
  end if;
  return new;
end
$fn$;
`,
  },
  {
    id: 15,
    // Lists page by keyset on (created_at, seq) over active rows only (paging.ts's activeRowsOf): each list reads
    // one index range, whatever the page's depth and however many rows were removed.
    sql: `
create index if not exists rends_active_page on rends (bucket, created_at, seq) where active = 1;
create index if not exists runs_active_page on runs (bucket, created_at, seq) where active = 1;
create index if not exists models_active_page on models (bucket, created_at, seq) where active = 1;
create index if not exists apikeys_active_page on apikeys (client, created_at, seq) where active = 1;
create index if not exists integrations_active_page on integrations (client, created_at, seq) where active = 1;
create index if not exists uploads_rend_order on uploads (rend, created_at, seq);
create index if not exists boxes_rend_order on boxes (rend, created_at, seq);
`,
  },
  {
    id: 16,
    // Text embeddings through the client's own OpenAI key: the general model that does it, and the width a request asks.
    sql: `
insert into models (stamp, bucket, name, "desc", state, message, active, created_at) values
  ('general-openai-text-embedding-3-small', null, 'OpenAI text embeddings', 'Embeds texts (a .json list of strings) with OpenAI''s text-embedding-3-small; it uses your OpenAI integration key, and OpenAI bills that key''s account.', 'Finished', '', 1, 1767225600)
on conflict (stamp) do nothing;
alter table runs add column if not exists dimensions integer;
`,
  },
  {
    id: 17,
    // Upload previews and generate requests' maps (issue 29): built once by the worker, kept apart from their rows so
    // lists stay light.
    sql: `
create table if not exists upload_previews (
  upload text primary key,
  body text not null
);
create table if not exists run_projections (
  run text primary key,
  body text not null
);
`,
  },
  {
    // Two-factor sign-in: a TOTP secret per user (encrypted like integration tokens; enabled once confirmed by a code),
    // its one-time recovery codes (hashed), and the second step's single-use challenges.
    id: 18,
    sql: `
create table user_otp (
  user_stamp text primary key references users(stamp),
  secret_enc text not null,
  enabled_at bigint,
  last_step bigint not null default 0,
  created_at bigint not null
);
create table recovery_codes (
  user_stamp text not null references users(stamp),
  code_hash text not null,
  used_at bigint,
  primary key (user_stamp, code_hash)
);
create table otp_challenges (
  jti text primary key,
  user_stamp text not null references users(stamp),
  expires_at bigint not null,
  used_at bigint
);
create index otp_challenges_user on otp_challenges (user_stamp);
`,
  },
  {
    // Sessions you can see: when each was last used (written at most once a minute), and the address and user agent
    // the server saw when it began.
    id: 19,
    sql: `
alter table sessions add column last_used_at bigint;
alter table sessions add column address text;
alter table sessions add column user_agent text;
`,
  },
  {
    // Account changes (issue 30): an email change waits for its link (kept by the token's id, used once, withdrawn by
    // a newer request or a cancel), and a deleted account keeps its row (the audit log and the removed clients name
    // it) without the email, username or password it had.
    id: 20,
    sql: `
create table email_changes (
  jti text primary key,
  user_stamp text not null references users(stamp),
  new_email text not null,
  created_at bigint not null,
  expires_at bigint not null,
  used_at bigint,
  withdrawn_at bigint
);
create index email_changes_user on email_changes (user_stamp);
alter table users add column deleted_at bigint;
`,
  },
  {
    // The addresses each account signed in from (sessions' rows go a day after they expire, so they cannot tell a
    // new address from one of last month), first from the addresses of the sessions kept now.
    id: 21,
    sql: `
create table known_addresses (
  user_stamp text not null references users(stamp),
  address text not null,
  first_at bigint not null,
  last_at bigint not null,
  primary key (user_stamp, address)
);
insert into known_addresses (user_stamp, address, first_at, last_at)
  select user_stamp, address, min(created_at), max(created_at) from sessions where address is not null group by user_stamp, address;
`,
  },
  {
    // An upload's active request count lives on its row, kept by the requests' trigger like the project's counts
    // (migration 3): a page of uploads reads it with the rows instead of counting each upload's requests. The upload
    // row is updated before the project's, the order the uploads' own trigger locks them in.
    id: 22,
    sql: `
alter table rends add column run_count integer not null default 0;
update rends d set run_count = (select count(*) from runs r where r.rend = d.stamp and r.active = 1);
create or replace function portal_count_runs() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') and old.active = 1 then
    if old.rend is not null then
      update rends set run_count = run_count - 1 where stamp = old.rend;
    end if;
    update buckets set run_count = run_count - 1 where stamp = old.bucket;
  end if;
  if tg_op in ('INSERT', 'UPDATE') and new.active = 1 then
    if new.rend is not null then
      update rends set run_count = run_count + 1 where stamp = new.rend;
    end if;
    update buckets set run_count = run_count + 1 where stamp = new.bucket;
  end if;
  return null;
end $$;
drop trigger runs_count on runs;
create trigger runs_count after insert or delete or update of active, bucket, rend on runs
  for each row execute function portal_count_runs();
`,
  },
  {
    // Codes tried on a sign-in's second step are counted on its challenge (OTP_CHALLENGE_TRIES, then it is over).
    id: 23,
    sql: `
alter table otp_challenges add column tries integer not null default 0;
`,
  },
  {
    // A finished fit's held-out score ({name, value, rows} as JSON text) and its plain note (e.g. "stopped early at
    // epoch 14: validation loss rose"), on the run's row so the status record and lists read them with the run.
    id: 24,
    sql: `
alter table runs add column metrics text;
alter table runs add column note text;
`,
  },
  {
    // Account-security events go to the user's own log, not to the audit log of every client the user belongs to:
    // the lines written there before move (once per event: they were written once per client) and leave the clients'.
    id: 25,
    sql: `
create table user_events (
  seq bigint generated always as identity primary key,
  user_stamp text not null references users(stamp),
  at bigint not null,
  action text not null,
  target text not null default '',
  detail text not null default ''
);
create index user_events_user on user_events (user_stamp, seq desc);
insert into user_events (user_stamp, at, action, target, detail)
  select d.actor_stamp, d.at, d.action, d.target, d.detail from (
    select distinct a.actor_stamp, a.at, a.action, a.target, a.detail from audit a
    where a.action in ('signin.new-address', 'otp.on', 'otp.off', 'password.change', 'email.change.start', 'email.change')
      and exists (select 1 from users u where u.stamp = a.actor_stamp)
  ) d order by d.at;
delete from audit where action in ('signin.new-address', 'otp.on', 'otp.off', 'password.change', 'email.change.start', 'email.change');
`,
  },
  {
    // Webhooks: a client's endpoints (signing secrets encrypted like keys), the events as they happen (written by
    // triggers where the state changes, in the same transaction, so no path that finishes a run or an upload can miss
    // one), each event's delivery to each subscribed endpoint (the durable queue the worker sends from) and every
    // attempt of it. An event's body is its exact text as sent (Standard Webhooks: type, timestamp, data).
    id: 26,
    sql: `
create table webhook_endpoints (
  seq bigint generated always as identity,
  stamp text primary key,
  client text not null references clients(stamp),
  name text not null,
  url text not null,
  events text not null,
  secret_enc text not null,
  previous_secret_enc text,
  previous_until bigint,
  state text not null default 'active',
  failing_since bigint,
  last_attempt_at bigint,
  last_status integer,
  created_at bigint not null
);
create index webhook_endpoints_client on webhook_endpoints (client, created_at, seq);
create table webhook_events (
  seq bigint generated always as identity primary key,
  id text not null unique,
  client text not null,
  type text not null,
  body text not null,
  only_endpoint text,
  created_at bigint not null
);
create index webhook_events_client on webhook_events (client, seq);
create index webhook_events_created on webhook_events (created_at);
create table webhook_deliveries (
  seq bigint generated always as identity primary key,
  stamp text not null unique,
  endpoint text not null references webhook_endpoints(stamp) on delete cascade,
  event text not null references webhook_events(id) on delete cascade,
  type text not null,
  state text not null default 'pending',
  attempts integer not null default 0,
  next_at bigint,
  locked_until bigint,
  last_attempt_at bigint,
  last_status integer,
  last_error text not null default '',
  created_at bigint not null
);
create index webhook_deliveries_due on webhook_deliveries (next_at) where state = 'pending';
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint, seq);
create table webhook_attempts (
  seq bigint generated always as identity primary key,
  delivery text not null references webhook_deliveries(stamp) on delete cascade,
  at bigint not null,
  status integer,
  duration_ms integer not null,
  answer text not null,
  error text not null
);
create index webhook_attempts_delivery on webhook_attempts (delivery, seq);

create or replace function portal_webhook_emit(p_client text, p_type text, p_data jsonb) returns void language plpgsql as $fn$
declare
  t bigint := floor(extract(epoch from clock_timestamp()))::bigint;
  v_id text := 'evt_' || replace(gen_random_uuid()::text, '-', '');
begin
  if p_client is null then return; end if;
  insert into webhook_events (id, client, type, body, created_at) values (v_id, p_client, p_type,
    json_build_object('type', p_type,
      'timestamp', to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'data', p_data)::text,
    t);
  insert into webhook_deliveries (stamp, endpoint, event, type, next_at, created_at)
    select 'msg_' || replace(gen_random_uuid()::text, '-', ''), e.stamp, v_id, p_type, t, t
    from webhook_endpoints e
    where e.client = p_client and e.state = 'active' and (',' || e.events || ',') like ('%,' || p_type || ',%');
end
$fn$;

create or replace function portal_webhook_run() returns trigger language plpgsql as $fn$
begin
  if new.state in ('Finished', 'Failed') and (tg_op = 'INSERT' or new.state is distinct from old.state) then
    perform portal_webhook_emit(
      (select b.client from buckets b where b.stamp = new.bucket),
      case when new.state = 'Finished' then 'run.finished' else 'run.failed' end,
      jsonb_build_object('id', new.stamp, 'project', new.bucket, 'function', new.function, 'name', new.name,
        'state', new.state, 'message', new.message, 'upload', new.rend));
  end if;
  return null;
end
$fn$;
create trigger runs_webhook after insert or update of state on runs for each row execute function portal_webhook_run();

create or replace function portal_webhook_rend() returns trigger language plpgsql as $fn$
begin
  if new.flight in ('Ready', 'Failed') and (tg_op = 'INSERT' or new.flight is distinct from old.flight) then
    perform portal_webhook_emit(
      (select b.client from buckets b where b.stamp = new.bucket),
      case when new.flight = 'Ready' then 'upload.ready' else 'upload.failed' end,
      jsonb_build_object('id', new.stamp, 'project', new.bucket, 'name', new.name, 'state', new.flight,
        'message', coalesce((select coalesce(u.error, u.meta_error) from uploads u
          where u.rend = new.stamp and u.state = 'Failed' order by u.seq limit 1), '')));
  end if;
  return null;
end
$fn$;
create trigger rends_webhook after insert or update of flight on rends for each row execute function portal_webhook_rend();

create or replace function portal_webhook_quote() returns trigger language plpgsql as $fn$
begin
  if tg_op = 'INSERT' or (new.paid_at is not null and old.paid_at is null) then
    perform portal_webhook_emit(
      (select b.client from buckets b where b.stamp = new.bucket),
      case when tg_op = 'INSERT' then 'quote.created' else 'quote.paid' end,
      jsonb_build_object('id', new.stamp, 'project', new.bucket, 'name', new.name, 'function', new.function,
        'state', new.state, 'cent', new.cent, 'invoiceNum', new.invoice_num, 'run', new.run));
  end if;
  return null;
end
$fn$;
create trigger quotes_webhook after insert or update of paid_at on quotes for each row execute function portal_webhook_quote();

create or replace function portal_webhook_member() returns trigger language plpgsql as $fn$
begin
  perform portal_webhook_emit(new.client_stamp, 'member.joined',
    jsonb_build_object('client', new.client_stamp, 'user', new.user_stamp,
      'email', (select u.email from users u where u.stamp = new.user_stamp), 'role', new.role));
  return null;
end
$fn$;
create trigger permissions_webhook after insert on permissions for each row execute function portal_webhook_member();
`,
  },
  {
    // A member's sign-ins are their own account events too: owners read that a member joined, left or changed role,
    // nothing of when or where a member signs in. The sign-in lines of clients' audit logs move (once per sign-in).
    id: 27,
    sql: `
insert into user_events (user_stamp, at, action, target, detail)
  select d.actor_stamp, d.at, 'signin', '', '' from (
    select distinct a.actor_stamp, a.at from audit a
    where a.action = 'signin' and exists (select 1 from users u where u.stamp = a.actor_stamp)
  ) d order by d.at;
delete from audit where action = 'signin';
`,
  },
];

export interface Migration {
  id: number;
  sql: string;
}

export interface MigrationStatus {
  applied: Array<{ id: number; appliedAt: number }>;
  pending: number[];
}

const LOCK = sql`select pg_advisory_xact_lock(724101)`;
const ensureTable = (db: Kysely<DB>) =>
  sql`create table if not exists schema_migrations (id integer primary key, applied_at bigint not null)`.execute(db);

/** Which migrations the database has, and which it still needs. */
export async function migrationStatus(db: Kysely<DB>, list: ReadonlyArray<Migration> = MIGRATIONS): Promise<MigrationStatus> {
  await ensureTable(db);
  const rows = await sql<{ id: number; applied_at: number | string }>`select id, applied_at from schema_migrations order by id`.execute(db);
  const done = new Set(rows.rows.map((r) => Number(r.id)));
  return {
    applied: rows.rows.map((r) => ({ id: Number(r.id), appliedAt: Number(r.applied_at) })),
    pending: list.filter((m) => !done.has(m.id)).map((m) => m.id),
  };
}

/**
 * Applies the migrations not applied yet (up to `upTo`, for tests of a step) and returns their ids. All of them run
 * in one transaction (PostgreSQL's DDL is transactional), so a step that fails leaves the database as it was; an
 * advisory lock keeps two processes starting at once from applying the same step twice.
 */
export async function migrate(db: Kysely<DB>, upTo = Infinity, list: ReadonlyArray<Migration> = MIGRATIONS): Promise<number[]> {
  await ensureTable(db);
  return db.transaction().execute(async (trx) => {
    await LOCK.execute(trx);
    const { pending } = await migrationStatus(trx, list);
    const run = list.filter((m) => m.id <= upTo && pending.includes(m.id));
    for (const m of run) {
      try {
        await sql.raw(m.sql).execute(trx);
      } catch (err) {
        throw new Error(`Migration ${m.id} failed, so none was applied: ${(err as Error).message}`);
      }
      await sql`insert into schema_migrations (id, applied_at) values (${m.id}, ${Math.floor(Date.now() / 1000)})`.execute(trx);
    }
    return run.map((m) => m.id);
  });
}
