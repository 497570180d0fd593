// Copy to the clipboard on click: the label shows Copied for 1 second; failures show SPEC's message.
import { useEffect, useRef, useState } from 'react';
import { COPIED_RESET_MS, MESSAGES } from '@portal/core';
import { notify } from '../lib/notify';

export type CopyWhat = 'code' | 'token' | 'example';

const FAILURE: Record<CopyWhat, string> = { code: MESSAGES.copyCode, token: MESSAGES.copyToken, example: MESSAGES.copyExample };

export function useCopy(write: (text: string) => Promise<void> = (t) => navigator.clipboard.writeText(t)) {
  const [copied, setCopied] = useState<CopyWhat | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const copy = async (what: CopyWhat, text: string) => {
    try {
      await write(text);
      setCopied(what);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(null), COPIED_RESET_MS);
    } catch {
      notify(FAILURE[what], 'error');
    }
  };
  return { copied, copy };
}
