// Copy to the clipboard with the "copied" label that resets after a second (SPEC section 2).
import { useCallback, useEffect, useRef, useState } from 'react';
import { COPIED_RESET_MS, MESSAGES } from '../messages';
import { useNotify } from './context';

export type CopyWhat = 'code' | 'token' | 'example';

const FAILURE: Record<CopyWhat, string> = { code: MESSAGES.copyCode, token: MESSAGES.copyToken, example: MESSAGES.copyExample };

export function useCopy(): {
  copied: CopyWhat | null;
  copy(what: CopyWhat, text: string, write: (text: string) => Promise<void>): Promise<void>;
} {
  const notify = useNotify();
  const [copied, setCopied] = useState<CopyWhat | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const copy = useCallback(
    async (what: CopyWhat, text: string, write: (text: string) => Promise<void>) => {
      try {
        await write(text);
      } catch {
        notify(FAILURE[what], 'error');
        return;
      }
      setCopied(what);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(null), COPIED_RESET_MS);
    },
    [notify],
  );
  return { copied, copy };
}
