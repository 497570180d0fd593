// S3-compatible store: STORAGE_URL = s3://<bucket>?endpoint=<url>&region=<r>&forcePathStyle=true[&accessKeyId=..&secretAccessKey=..].
// Browsers PUT to a staging key; finishing the item copies it to the key runs read and checks that copy's SHA-256,
// so a signed URL used again after the check writes only to a staging key nothing reads.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CORSRule, S3Client } from '@aws-sdk/client-s3';
import { newId, now } from '../ids';
import { DOWNLOAD_URL_TTL_S, type SealOutcome, type Storage, type StorageLog, type UploadTarget } from './types';
import { CHECKSUM_MISMATCH, sizeMismatch } from './messages';
import { sweepFolder } from './scratch';
import { StoreStatus } from './status';

export interface S3Location {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

export function parseStorageUrl(url: string): S3Location {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`STORAGE_URL is not a URL: expected s3://<bucket>?endpoint=...&region=...`);
  }
  if (u.protocol !== 's3:' || !u.hostname) throw new Error('STORAGE_URL must look like s3://<bucket>?endpoint=...&region=...');
  const q = u.searchParams;
  return {
    bucket: u.hostname,
    endpoint: q.get('endpoint') ?? undefined,
    region: q.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
    forcePathStyle: q.get('forcePathStyle') === 'true',
    accessKeyId: q.get('accessKeyId') ?? undefined,
    secretAccessKey: q.get('secretAccessKey') ?? undefined,
  };
}

/** Upload bytes wait here, under the key they will be copied to, until their item is finished. */
export const STAGING_PREFIX = 'incoming/';
export const stagingKey = (key: string) => `${STAGING_PREFIX}${key}`;

/** The headers a browser's upload PUT carries (core's xhrPut sets the content type). */
export const UPLOAD_HEADERS = ['content-type'];
const CORS_RULE_ID = 'portal-uploads';

/** The rule the portal sets: its origins may PUT uploads and GET or HEAD downloads, with the headers browsers send. */
export function portalCorsRule(origins: string[]): CORSRule {
  return {
    ID: CORS_RULE_ID,
    AllowedOrigins: origins,
    AllowedMethods: ['PUT', 'GET', 'HEAD'],
    AllowedHeaders: UPLOAD_HEADERS,
    ExposeHeaders: ['ETag'],
    MaxAgeSeconds: 3600,
  };
}

const wildcard = (pattern: string, value: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'i',
  ).test(value);

/** What the bucket's CORS rules lack for browser uploads from these origins, as a phrase; null when nothing. */
export function missingCors(rules: readonly CORSRule[], origins: readonly string[]): string | null {
  const lacking = origins.filter(
    (origin) =>
      !rules.some(
        (r) =>
          (r.AllowedOrigins ?? []).some((o) => wildcard(o, origin)) &&
          (r.AllowedMethods ?? []).some((m) => m.toUpperCase() === 'PUT') &&
          UPLOAD_HEADERS.every((h) => (r.AllowedHeaders ?? []).some((a) => wildcard(a, h))),
      ),
  );
  return lacking.length ? `PUT from ${lacking.join(', ')} with the ${UPLOAD_HEADERS.join(', ')} header` : null;
}

type Sdk = typeof import('@aws-sdk/client-s3');
type Presigner = typeof import('@aws-sdk/s3-request-presigner');

export interface S3Options {
  uploadTtlS: number;
  sweepGraceS: number;
  /** Where objects are copied to for reading, and swept from when a crash left them. */
  scratchDir: string;
  corsOrigins: string[];
  log: StorageLog;
}

/** The AWS SDK is large: it loads only when STORAGE_URL asks for it, so the default start stays quick. */
export async function openS3Storage(url: string, opts: S3Options): Promise<S3Storage> {
  const [sdk, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
  return new S3Storage(url, sdk, presigner, opts);
}

const errorName = (err: unknown) => (err as { name?: string })?.name ?? '';
const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
const isNotFound = (err: unknown) => statusOf(err) === 404 || ['NotFound', 'NoSuchKey', 'NoSuchBucket'].includes(errorName(err));
const reason = (err: unknown) =>
  (err as NodeJS.ErrnoException)?.code ??
  (errorName(err) || (statusOf(err) ? `HTTP ${statusOf(err)}` : String((err as Error)?.message ?? err)));

/** How long a readiness probe waits for the bucket. */
const CHECK_TIMEOUT_MS = 3000;
/** Staging objects listed per sweep at most: the rest wait for the next one. */
const SWEEP_PAGES = 10;

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly loc: S3Location;
  readonly client: S3Client;
  readonly uploadTtlS: number;
  readonly sweepGraceS: number;
  private readonly status: StoreStatus;
  private corsDone = false;

  constructor(
    url: string,
    private readonly sdk: Sdk,
    private readonly presigner: Presigner,
    private readonly opts: S3Options,
  ) {
    this.loc = parseStorageUrl(url);
    this.uploadTtlS = opts.uploadTtlS;
    this.sweepGraceS = opts.sweepGraceS;
    this.status = new StoreStatus(opts.log);
    this.client = new sdk.S3Client({
      region: this.loc.region,
      endpoint: this.loc.endpoint,
      forcePathStyle: this.loc.forcePathStyle,
      // Signed URLs must not ask the browser for checksum headers it does not know how to send.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A store that does not answer must not hold requests (or start-up) for long.
      requestHandler: { connectionTimeout: 5000, requestTimeout: 60_000 },
      ...(this.loc.accessKeyId && this.loc.secretAccessKey
        ? { credentials: { accessKeyId: this.loc.accessKeyId, secretAccessKey: this.loc.secretAccessKey } }
        : {}),
    });
  }

  private get where() {
    return `the bucket "${this.loc.bucket}"${this.loc.endpoint ? ` at ${this.loc.endpoint}` : ''}`;
  }

  async init(opts: { exclusive?: boolean } = {}) {
    await mkdir(this.opts.scratchDir, { recursive: true });
    if (opts.exclusive) await sweepFolder(this.opts.scratchDir, Infinity);
    await this.ready(true);
  }

  check(): Promise<string | null> {
    return this.ready(false, AbortSignal.timeout(CHECK_TIMEOUT_MS));
  }

  /** Heads the bucket (creating it at start when it does not exist), then sees to its CORS rule once it answers. */
  private async ready(create: boolean, abortSignal?: AbortSignal): Promise<string | null> {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.loc.bucket }), { abortSignal });
    } catch (err) {
      if (!(create && isNotFound(err))) return this.status.report(this.bucketProblem(err));
      try {
        await this.client.send(new this.sdk.CreateBucketCommand({ Bucket: this.loc.bucket }));
        this.opts.log.info(`Created ${this.where}.`);
      } catch (createErr) {
        return this.status.report(`${this.where} does not exist and could not be created (${reason(createErr)}).`);
      }
    }
    if (!this.corsDone && this.opts.corsOrigins.length) this.corsDone = await this.ensureCors();
    return this.status.report(null);
  }

  private bucketProblem(err: unknown): string {
    if (isNotFound(err)) return `${this.where} does not exist: create it, or correct STORAGE_URL.`;
    if (statusOf(err) === 403) return `access to ${this.where} is denied: check the credentials and the bucket policy.`;
    return `${this.where} cannot be reached (${reason(err)}).`;
  }

  /** Adds the portal's CORS rule when the bucket's rules do not let its origins upload; says what is missing when it cannot. */
  private async ensureCors(): Promise<boolean> {
    const origins = this.opts.corsOrigins;
    let rules: CORSRule[] = [];
    try {
      rules = (await this.client.send(new this.sdk.GetBucketCorsCommand({ Bucket: this.loc.bucket }))).CORSRules ?? [];
    } catch (err) {
      if (errorName(err) !== 'NoSuchCORSConfiguration') {
        this.opts.log.error(
          `Could not read the CORS rules of ${this.where} (${reason(err)}): browser uploads need ${missingCors([], origins)}.`,
        );
        return false;
      }
    }
    const missing = missingCors(rules, origins);
    if (!missing) return true;
    // The operator's own rules stay; the portal's rule gains these origins and keeps those other processes set.
    const earlier = rules.find((r) => r.ID === CORS_RULE_ID)?.AllowedOrigins ?? [];
    const rule = portalCorsRule([...new Set([...earlier, ...origins])]);
    try {
      const CORSRules = [...rules.filter((r) => r.ID !== CORS_RULE_ID), rule];
      await this.client.send(new this.sdk.PutBucketCorsCommand({ Bucket: this.loc.bucket, CORSConfiguration: { CORSRules } }));
      this.opts.log.info(`Set the CORS rule of ${this.where}: ${origins.join(', ')} may upload from a browser.`);
      return true;
    } catch (err) {
      this.opts.log.error(
        `The CORS rules of ${this.where} do not allow ${missing}, so browser uploads will fail, and setting them failed (${reason(err)}). ` +
          `Add a rule with AllowedOrigins ${JSON.stringify(rule.AllowedOrigins)}, AllowedMethods ${JSON.stringify(rule.AllowedMethods)}, ` +
          `AllowedHeaders ${JSON.stringify(rule.AllowedHeaders)}, ExposeHeaders ["ETag"].`,
      );
      return false;
    }
  }

  async uploadUrl(target: UploadTarget, key: string) {
    const cmd = new this.sdk.PutObjectCommand({ Bucket: this.loc.bucket, Key: stagingKey(key), ContentLength: target.size });
    const url = await this.presigner.getSignedUrl(this.client, cmd, { expiresIn: this.uploadTtlS });
    return { url, expiresAt: now() + this.uploadTtlS };
  }

  async seal(key: string, expected: UploadTarget, abortSignal?: AbortSignal): Promise<SealOutcome> {
    const staged = stagingKey(key);
    const head = await this.head(staged, abortSignal);
    if (!head) return { missing: true };
    if (head.size !== expected.size) {
      await this.remove(key);
      return { error: sizeMismatch(head.size, expected.size) };
    }
    // The copy is what runs read: it is checked, not the staging object the URL can still overwrite.
    const source = `${this.loc.bucket}/${staged.split('/').map(encodeURIComponent).join('/')}`;
    await this.client.send(new this.sdk.CopyObjectCommand({ Bucket: this.loc.bucket, Key: key, CopySource: source }), { abortSignal });
    const copied = await this.digest(key, expected.size, abortSignal);
    if (copied.size !== expected.size || copied.sha256 !== expected.checksum) {
      await this.remove(key);
      return { error: copied.size !== expected.size ? sizeMismatch(copied.size, expected.size) : CHECKSUM_MISMATCH };
    }
    await this.deleteKey(staged);
    return { ok: true };
  }

  private async head(key: string, abortSignal?: AbortSignal) {
    try {
      const head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.loc.bucket, Key: key }), { abortSignal });
      return { size: Number(head.ContentLength ?? 0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** SHA-256 and length of a stored object, reading no more than one byte past `limit`. */
  private async digest(key: string, limit: number, abortSignal?: AbortSignal) {
    const res = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.loc.bucket, Key: key }), { abortSignal });
    const hash = createHash('sha256');
    let size = 0;
    const body = res.Body as Readable;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        body.destroy();
        break;
      }
      hash.update(chunk as Buffer);
    }
    return { size, sha256: hash.digest('hex') };
  }

  async stat(key: string) {
    return this.head(key);
  }

  async localCopy(key: string) {
    const dir = join(this.opts.scratchDir, newId());
    await mkdir(dir, { recursive: true });
    const path = join(dir, 'object');
    const done = () => rm(dir, { recursive: true, force: true });
    try {
      const res = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.loc.bucket, Key: key }));
      await pipeline(res.Body as Readable, createWriteStream(path));
    } catch (err) {
      await done();
      throw err;
    }
    return { path, done };
  }

  async putFile(key: string, path: string) {
    const size = (await stat(path)).size;
    await this.client.send(
      new this.sdk.PutObjectCommand({ Bucket: this.loc.bucket, Key: key, Body: createReadStream(path), ContentLength: size }),
    );
    await rm(path, { force: true });
  }

  private async deleteKey(key: string) {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.loc.bucket, Key: key }));
  }

  async remove(key: string) {
    await Promise.all([this.deleteKey(key), this.deleteKey(stagingKey(key))]);
  }

  async downloadUrl(key: string, fileName: string) {
    const cmd = new this.sdk.GetObjectCommand({
      Bucket: this.loc.bucket,
      Key: key,
      ResponseContentDisposition: `attachment; filename="${fileName.replace(/["\\]/g, '')}"`,
    });
    return this.presigner.getSignedUrl(this.client, cmd, { expiresIn: DOWNLOAD_URL_TTL_S });
  }

  /** Staging objects older than the cutoff belong to URLs long expired: sealed, failed or abandoned, nobody reads them. */
  async sweepScratch(cutoffS: number): Promise<number> {
    let removed = await sweepFolder(this.opts.scratchDir, cutoffS);
    let token: string | undefined;
    for (let page = 0; page < SWEEP_PAGES; page++) {
      const list = await this.client.send(
        new this.sdk.ListObjectsV2Command({ Bucket: this.loc.bucket, Prefix: STAGING_PREFIX, ContinuationToken: token }),
      );
      for (const o of list.Contents ?? []) {
        if (!o.Key || !o.LastModified || o.LastModified.getTime() >= cutoffS * 1000) continue;
        await this.deleteKey(o.Key);
        removed++;
      }
      token = list.NextContinuationToken;
      if (!list.IsTruncated || !token) break;
    }
    return removed;
  }
}
