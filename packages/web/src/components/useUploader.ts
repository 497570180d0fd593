// Uploads files as one group with core's pipeline: progress per file, SPEC's success notice per file, cancel, failure notice.
import { useRef, useState } from 'react';
import { isApiError, MESSAGES, runUpload, type UploadProgress } from '@portal/core';
import { useApi } from '@portal/core/react';
import { notify } from '../lib/notify';
import { useLeaveWarning } from '../lib/useLeaveWarning';

export function useUploader(bucketId: string) {
  const [progress, setProgress] = useState<UploadProgress[]>([]);
  const [busy, setBusy] = useState(false);
  const ctrl = useRef<AbortController | null>(null);
  const api = useApi();
  useLeaveWarning(busy);

  /** Resolves to the new upload group's stamp, or null when it failed or was cancelled (already notified). */
  const upload = async (files: File[]): Promise<string | null> => {
    setBusy(true);
    const controller = new AbortController();
    ctrl.current = controller;
    setProgress(files.map((f, index) => ({ file: f.name, index, loaded: 0, total: f.size })));
    try {
      const result = await runUpload(api, {
        bucket: bucketId,
        files,
        signal: controller.signal,
        onProgress: (p) => setProgress((old) => old.map((o) => (o.index === p.index ? p : o))),
        onFileDone: (f) => notify(MESSAGES.uploadSucceeded(f.name), 'uploadSuccess'),
      });
      return result.rend;
    } catch (e) {
      // Core removes the half-made group before the cancel comes back here.
      if (controller.signal.aborted || (e as Error)?.name === 'AbortError') notify(MESSAGES.uploadCancelled);
      else if (!(isApiError(e) && e.isAuth)) notify(isApiError(e) ? e.detail : MESSAGES.uploadFiles, 'error');
      return null;
    } finally {
      ctrl.current = null;
      setProgress([]);
      setBusy(false);
    }
  };

  const cancel = () => ctrl.current?.abort();
  return { upload, progress, busy, cancel };
}
