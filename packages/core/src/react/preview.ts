// Seeing the data: an upload's preview (polled while the file is analysed) and a generate request's map.
import { PREVIEW_NOTES, PROJECTION_NOTES } from '../contract/constants';
import type { UploadPreview } from '../contract/preview';
import type { CallResponse } from '../contract';
import { useApi } from './context';
import { callKey } from '../query';
import { useLoad, type Loaded } from './useLoad';

/** While a file is analysed its preview is asked for again this often. */
export const PREVIEW_POLL_MS = 2_000;

/** Failure text of the preview (SPEC names none): says what failed and that trying again may help. */
export const PREVIEW_FAILURE = 'Failed to load the preview. Please try again.';

export function useUploadPreview(uploadId: string | null): Loaded<UploadPreview | null> {
  const api = useApi();
  return useLoad(
    callKey('uploadPreview', { upload: uploadId ?? '' }),
    async (signal) => (uploadId ? (await api.calls.uploadPreview({ upload: uploadId }, { signal })).preview : null),
    { failure: PREVIEW_FAILURE, pollMs: PREVIEW_POLL_MS, until: (p) => p?.note !== PREVIEW_NOTES.analysing },
  );
}

/** A generate request's map: polled while the request works, then kept. */
export function useRunProjection(runId: string): Loaded<CallResponse<'runProjection'>> {
  const api = useApi();
  return useLoad(callKey('runProjection', { run: runId }), (signal) => api.calls.runProjection({ run: runId }, { signal }), {
    pollMs: PREVIEW_POLL_MS,
    until: (r) => r.note !== PROJECTION_NOTES.waiting,
  });
}
