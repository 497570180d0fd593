// Table types of the database, as Kysely sees them (one row shape per table of migrations.ts).
import type { Generated } from 'kysely';

export interface UserTable {
  stamp: string;
  email: string;
  username: string;
  password_hash: string;
  created_at: number;
  /** When the account was deleted (migration 20); its email and username are then placeholders. */
  deleted_at: Generated<number | null>;
}
export interface ClientTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  stamp: string;
  name: string;
  plan: string;
  choice: string;
  active: number;
  /** Free credit granted and consumed, in input parameters. */
  credit_total: number;
  credit_used: number;
  created_at: number;
}
export interface PermissionTable {
  user_stamp: string;
  client_stamp: string;
  created_at: number;
  /** 'owner' or 'member' (migration 9). */
  role: Generated<string>;
}
export interface ApiKeyTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  clue: string;
  client: string;
  name: string;
  token_enc: string;
  token_hash: string;
  installs: number;
  installed_at: number | null;
  /** Random text in the installer's path: only members see it, and a download without it counts nothing (migration 6). */
  install_secret: string;
  active: number;
  created_at: number;
}
export interface IntegrationTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  clue: string;
  client: string;
  name: string;
  service: string;
  token_enc: string;
  runs: number;
  run_at: number | null;
  active: number;
  created_at: number;
}
export interface BucketTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  stamp: string;
  client: string;
  name: string;
  active: number;
  /** Active requests and uploads of the project, kept by triggers (migration 3). */
  run_count: Generated<number>;
  rend_count: Generated<number>;
  created_at: number;
}
export interface RendTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  stamp: string;
  bucket: string;
  name: string;
  flight: string;
  active: number;
  created_at: number;
  /** Active requests made from the upload, kept by a trigger (migration 22). */
  run_count: Generated<number>;
}
export interface UploadTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  stamp: string;
  rend: string;
  name: string;
  state: string;
  checksum: string;
  file_name: string;
  size: number;
  proc: number;
  cols: number | null;
  rows: number | null;
  inputs: number | null;
  meta_error: string | null;
  error: string | null;
  stored: number;
  created_at: number;
  /** Until when a finish call holds the item while it takes the uploaded bytes (migration 7). */
  sealing_until: number | null;
  /** When the item failed or its upload or project was removed: the storage sweep's grace period starts here (migration 7). */
  ended_at: number | null;
  /** When the sweep deleted the item's stored objects (migration 7). */
  swept_at: number | null;
}
export interface BoxTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  stamp: string;
  rend: string;
  run: string | null;
  name: string;
  size: number;
  storage_key: string;
  created_at: number;
}
export interface PileTable {
  stamp: string;
  bucket: string;
  variety: string;
  param: string;
  created_at: number;
}
export interface RunTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  stamp: string;
  bucket: string;
  rend: string | null;
  pile: string | null;
  fit: string | null;
  quote: string | null;
  model: string | null;
  name: string;
  desc: string;
  function: string;
  state: string;
  message: string;
  result_key: string | null;
  inputs: number;
  active: number;
  created_at: number;
  /** Set by the state trigger (migration 10): when the run went Processing, and when it settled. */
  started_at: Generated<number | null>;
  finished_at: Generated<number | null>;
  /** The width a text-embedding request asked for (migration 16); null: the model's default. */
  dimensions: Generated<number | null>;
  /** A finished fit's held-out score as JSON text `{name, value, rows}` (migration 24). */
  metrics: Generated<string | null>;
  /** A fit's plain note, e.g. "stopped early at epoch 14: validation loss rose" (migration 24). */
  note: Generated<string | null>;
}
/** A run's event log (migration 10): state changes (written by a trigger), progress and sentences from the worker. */
export interface RunEventTable {
  seq: Generated<number>;
  run: string;
  at: number;
  kind: string;
  message: string;
  /** JSON text, or null. */
  data: string | null;
  /** The request that started the work this event is about (migration 12); null for events before it. */
  request_id: Generated<string | null>;
}
export interface ModelTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  stamp: string;
  /** Null for the general models every client sees. */
  bucket: string | null;
  rend: string | null;
  run: string | null;
  name: string;
  desc: string;
  state: string;
  message: string;
  data: string | null;
  active: number;
  created_at: number;
}
export interface QuoteTable {
  /** Insertion order, to break ties between rows made in the same second (migration 4). */
  seq: Generated<number>;
  stamp: string;
  bucket: string;
  rend: string | null;
  pile: string | null;
  run: string | null;
  name: string;
  desc: string;
  function: string;
  state: string;
  message: string;
  cent: number;
  invoice_num: string;
  inputs: number;
  active: number;
  created_at: number;
  paid_at: number | null;
}
export interface JobTable {
  id: Generated<number>;
  kind: string;
  ref: string;
  state: string;
  attempts: number;
  run_after: number;
  locked_until: number | null;
  error: string | null;
  created_at: number;
  /** The client whose work this is (fair sharing of worker slots); null for jobs made before migration 5. */
  client: string | null;
  /** The worker holding the job's lease while it runs. */
  owner: string | null;
  /** When the job was last claimed, in milliseconds (fair sharing: the client served longest ago goes first). */
  started_at: number | null;
  /** The API request that queued it (its log lines carry the same reqId); null outside a request. */
  request_id: string | null;
}
export interface ResetTokenTable {
  jti: string;
  user_stamp: string;
  expires_at: number;
  used_at: number | null;
}
export interface SessionTable {
  id: string;
  user_stamp: string;
  created_at: number;
  expires_at: number;
  ended_at: number | null;
  last_used_at: number | null;
  address: string | null;
  user_agent: string | null;
}
export interface RateLimitTable {
  key: string;
  /** Start of the current window, epoch milliseconds. */
  window_start: number;
  count: number;
}
/** A worker process's heartbeat (readiness checks that one was seen lately). */
export interface WorkerTable {
  id: string;
  host: string;
  pid: number;
  slots: number;
  started_at: number;
  seen_at: number;
}
/** A mail and its delivery attempts (the text encrypted; emptied once sent). */
export interface MailTable {
  id: string;
  to_addr: string;
  subject: string;
  body_enc: string;
  attempts: number;
  created_at: number;
  sent_at: number | null;
  last_error: string | null;
}
export interface SettingTable {
  key: string;
  value: string;
}

/** One line of a client's audit log (migration 9). */
export interface AuditTable {
  seq: Generated<number>;
  client: string;
  at: number;
  actor_stamp: string;
  actor_email: string;
  action: string;
  target: string;
  detail: string;
}
/** An invitation to a client; the link's token is kept only as its SHA-256 (migration 9). */
export interface InviteTable {
  stamp: string;
  client: string;
  email: string;
  role: string;
  token_hash: string;
  invited_by: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  used_by: string | null;
  withdrawn_at: number | null;
}

/** An account-security event in the user's own log (migration 25). */
export interface UserEventTable {
  seq: Generated<number>;
  user_stamp: string;
  at: number;
  action: string;
  target: string;
  detail: string;
}

export interface DB {
  user_events: UserEventTable;
  users: UserTable;
  clients: ClientTable;
  permissions: PermissionTable;
  apikeys: ApiKeyTable;
  integrations: IntegrationTable;
  buckets: BucketTable;
  rends: RendTable;
  uploads: UploadTable;
  boxes: BoxTable;
  piles: PileTable;
  runs: RunTable;
  run_events: RunEventTable;
  models: ModelTable;
  quotes: QuoteTable;
  jobs: JobTable;
  reset_tokens: ResetTokenTable;
  sessions: SessionTable;
  settings: SettingTable;
  rate_limits: RateLimitTable;
  workers: WorkerTable;
  mails: MailTable;
  audit: AuditTable;
  invites: InviteTable;
  upload_previews: UploadPreviewTable;
  run_projections: RunProjectionTable;
  user_otp: UserOtpTable;
  recovery_codes: RecoveryCodeTable;
  otp_challenges: OtpChallengeTable;
  email_changes: EmailChangeTable;
  known_addresses: KnownAddressTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
}

/** An upload's preview as the JSON the preview call answers (migration 17). */
export interface UploadPreviewTable {
  upload: string;
  body: string;
}

/** A generate request's map as the JSON the projection call answers (migration 17). */
export interface RunProjectionTable {
  run: string;
  body: string;
}

/** A user's TOTP secret (migration 18): `enabled_at` null while it waits for its first code. */
export interface UserOtpTable {
  user_stamp: string;
  secret_enc: string;
  enabled_at: number | null;
  /** The last time step a code was accepted for, so a code is never accepted twice. */
  last_step: Generated<number>;
  created_at: number;
}
export interface RecoveryCodeTable {
  user_stamp: string;
  code_hash: string;
  used_at: number | null;
}
export interface OtpChallengeTable {
  jti: string;
  user_stamp: string;
  expires_at: number;
  used_at: number | null;
  /** Codes tried with it (migration 23). */
  tries: Generated<number>;
}

/** An email change waiting for its confirmation link (migration 20). */
export interface EmailChangeTable {
  jti: string;
  user_stamp: string;
  new_email: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  withdrawn_at: number | null;
}

/** An address an account signed in from (migration 21): a sign-in from one not listed is audited and mailed. */
export interface KnownAddressTable {
  user_stamp: string;
  address: string;
  first_at: number;
  last_at: number;
}

/** A client's webhook endpoint (migration 26): `events` comma-separated, secrets encrypted. */
export interface WebhookEndpointTable {
  seq: Generated<number>;
  stamp: string;
  client: string;
  name: string;
  url: string;
  events: string;
  secret_enc: string;
  previous_secret_enc: string | null;
  previous_until: number | null;
  state: string;
  failing_since: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  created_at: number;
}
/** An event as it happened, its body the exact text sent (migration 26); `only_endpoint` for a test event. */
export interface WebhookEventTable {
  seq: Generated<number>;
  id: string;
  client: string;
  type: string;
  body: string;
  only_endpoint: string | null;
  created_at: number;
}
/** An event's delivery to one endpoint: the queue the worker sends from (migration 26). */
export interface WebhookDeliveryTable {
  seq: Generated<number>;
  stamp: string;
  endpoint: string;
  event: string;
  type: string;
  state: Generated<string>;
  attempts: Generated<number>;
  next_at: number | null;
  locked_until: Generated<number | null>;
  last_attempt_at: Generated<number | null>;
  last_status: Generated<number | null>;
  last_error: Generated<string>;
  created_at: number;
}
export interface WebhookAttemptTable {
  seq: Generated<number>;
  delivery: string;
  at: number;
  status: number | null;
  duration_ms: number;
  answer: string;
  error: string;
}
