// The parts of core that bring zod, ofetch and hashing: loaded when a command first talks to the API, so
// `portal --version` and `--help` start as fast as a bare commander program.
export {
  ApiClient,
  ApiError,
  isApiError,
  MESSAGES,
  defaultPut,
  runUpload,
  sha256Stream,
  createFitRequest,
  createReuseRequest,
  createShrinkRequest,
  isFinalState,
  followRunEvents,
  QUOTE_UNPAID,
  installCommand,
  pythonExample,
  timeoutText,
  unreachableText,
} from '@portal/core';
export { fileSource } from '@portal/core/node';
export { CALLS } from '@portal/core';

import {
  ApiClient,
  AuditEntry,
  Billing,
  Bucket,
  Client,
  ClientApiKey,
  IntegrationKey,
  Invite,
  Member,
  Model,
  PermissionEntry,
  Quote,
  Rend,
  Run,
  RunEvent,
  UploadItem,
  UsageDay,
  User,
  type ApiClientOptions,
} from '@portal/core';

/** The objects `--json` prints, for telling a field list from a command's own argument (named imports: see fields.ts). */
const ENTITIES = [
  AuditEntry,
  Billing,
  Bucket,
  Client,
  ClientApiKey,
  IntegrationKey,
  Invite,
  Member,
  Model,
  PermissionEntry,
  Quote,
  Rend,
  Run,
  RunEvent,
  UploadItem,
  UsageDay,
  User,
];

/** Every field name of those entities. */
export const entityFields = (): string[] => ENTITIES.flatMap((schema) => Object.keys(schema.shape));
import { plainHttp } from '@portal/core/node';

/** The API client of the `portal` program: its calls go over node:http, without loading Node's undici-backed fetch. */
export const nodeApi = (opts: ApiClientOptions) => new ApiClient({ http: plainHttp, ...opts });
