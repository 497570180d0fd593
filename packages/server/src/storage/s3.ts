// S3-compatible store: STORAGE_URL = s3://<bucket>?endpoint=<url>&region=<r>&forcePathStyle=true[&accessKeyId=..&secretAccessKey=..].
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { now } from '../ids';
import { DOWNLOAD_URL_TTL_S, UPLOAD_URL_TTL_S, type Storage, type UploadTarget } from './index';

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

type Sdk = typeof import('@aws-sdk/client-s3');
type Presigner = typeof import('@aws-sdk/s3-request-presigner');

/** The AWS SDK is large: it loads only when STORAGE_URL asks for it, so the default start stays quick. */
export async function openS3Storage(url: string): Promise<S3Storage> {
  const [sdk, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
  return new S3Storage(url, sdk, presigner);
}

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly loc: S3Location;
  readonly client: S3Client;

  constructor(url: string, private readonly sdk: Sdk, private readonly presigner: Presigner) {
    this.loc = parseStorageUrl(url);
    this.client = new sdk.S3Client({
      region: this.loc.region,
      endpoint: this.loc.endpoint,
      forcePathStyle: this.loc.forcePathStyle,
      // Signed URLs must not ask the browser for checksum headers it does not know how to send.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(this.loc.accessKeyId && this.loc.secretAccessKey
        ? { credentials: { accessKeyId: this.loc.accessKeyId, secretAccessKey: this.loc.secretAccessKey } }
        : {}),
    });
  }

  async init() {
    try {
      await this.client.send(new this.sdk.HeadBucketCommand({ Bucket: this.loc.bucket }));
    } catch {
      await this.client.send(new this.sdk.CreateBucketCommand({ Bucket: this.loc.bucket }));
    }
  }

  async uploadUrl(target: UploadTarget, key: string) {
    const cmd = new this.sdk.PutObjectCommand({ Bucket: this.loc.bucket, Key: key, ContentLength: target.size });
    const url = await this.presigner.getSignedUrl(this.client, cmd, { expiresIn: UPLOAD_URL_TTL_S });
    return { url, expiresAt: now() + UPLOAD_URL_TTL_S };
  }

  async stat(key: string) {
    try {
      const head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.loc.bucket, Key: key }));
      return { size: Number(head.ContentLength ?? 0) };
    } catch {
      return null;
    }
  }

  async localCopy(key: string) {
    const dir = await mkdtemp(join(tmpdir(), 'portal-s3-'));
    const path = join(dir, 'object');
    const res = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.loc.bucket, Key: key }));
    await pipeline(res.Body as Readable, createWriteStream(path));
    return { path, done: () => rm(dir, { recursive: true, force: true }) };
  }

  async putFile(key: string, path: string) {
    const size = (await stat(path)).size;
    await this.client.send(
      new this.sdk.PutObjectCommand({ Bucket: this.loc.bucket, Key: key, Body: createReadStream(path), ContentLength: size }),
    );
    await rm(path, { force: true });
  }

  async remove(key: string) {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.loc.bucket, Key: key }));
  }

  async downloadUrl(key: string, fileName: string) {
    const cmd = new this.sdk.GetObjectCommand({
      Bucket: this.loc.bucket,
      Key: key,
      ResponseContentDisposition: `attachment; filename="${fileName.replace(/["\\]/g, '')}"`,
    });
    return this.presigner.getSignedUrl(this.client, cmd, { expiresIn: DOWNLOAD_URL_TTL_S });
  }
}
