// What a push needs of core beyond the API client, loaded by the push alone: the upload flow, the PUT of a file that
// is not on disk, the errors it reads, and hashing of a stream. The conversion of a CSV or TSV to its JSON table
// (with its parser) loads only when such a file is pushed (tables.ts).
export { ApiError, isApiError, defaultPut, runUpload, sha256Stream, timeoutText, unreachableText } from '@portal/core';
export { fileSource } from '@portal/core/node';
