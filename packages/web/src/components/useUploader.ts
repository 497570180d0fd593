// Uploads files as one group with core's pipeline: progress per file, SPEC's success notice per file, failure notice.
import { useRef, useState } from 'react';
import { isApiError, MESSAGES, runUpload, type UploadProgress } from '@portal/core';
import { api } from '../lib/api';
import { notify } from '../lib/notify';

export function useUploader(bucketId: string) {
  const [progress, setProgress] = useState<UploadProgress[]>([]);
  const [busy, setBusy] = useState(false);
  const ctrl = useRef<AbortController | null>(null);

  /** Resolves to the new upload group's stamp, or null when it failed (already notified). */
  const upload = async (files: File[]): Promise<string | null> => {
    setBusy(true);
    ctrl.current = new AbortController();
    setProgress(files.map((f, index) => ({ file: f.name, index, loaded: 0, total: f.size })));
    try {
      const result = await runUpload(api, {
        bucket: bucketId,
        files,
        signal: ctrl.current.signal,
        onProgress: (p) => setProgress((old) => old.map((o) => (o.index === p.index ? p : o))),
        onFileDone: (f) => notify(MESSAGES.uploadSucceeded(f.name), 'uploadSuccess'),
      });
      setProgress([]);
      return result.rend;
    } catch (e) {
      if (!(isApiError(e) && e.isAuth) && (e as Error)?.name !== 'AbortError') notify(isApiError(e) ? e.detail : MESSAGES.uploadFiles, 'error');
      setProgress([]);
      return null;
    } finally {
      setBusy(false);
    }
  };

  const cancel = () => ctrl.current?.abort();
  return { upload, progress, busy, cancel };
}
