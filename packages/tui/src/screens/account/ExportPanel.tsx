// Your data: everything the account holds as one JSON file, saved in the current folder.
import { useEffect, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import { ACCOUNT_MESSAGES } from '@portal/core';
import { useAccountExport } from '@portal/core/react';
import { useHelp, useNav } from '../../ui/context';
import { Outcome } from './panel';

export function ExportPanel() {
  const nav = useNav();
  const exp = useAccountExport();
  const [saved, setSaved] = useState<{ path?: string; problem?: string } | null>(null);
  useInput(
    (_input, key) => {
      if (!key.return) return;
      setSaved(null);
      void exp.start();
    },
    { isActive: !exp.busy && !nav.menuFocused && nav.capture === 'none' },
  );
  // The export made: saved in the current folder, then forgotten.
  const { file, done } = exp;
  const { saveFile } = nav.io;
  useEffect(() => {
    if (!file) return;
    done();
    saveFile(file.name, file.text).then(
      (path) => setSaved({ path }),
      (e: Error) => setSaved({ problem: e.message }),
    );
  }, [file, done, saveFile]);
  useHelp('←→ section · Enter export');
  return (
    <Box flexDirection="column">
      <Text>
        Everything your account holds (projects, uploads&apos; details, requests, models, keys&apos; details, the audit log) as one JSON
        file. Secrets and tokens are never in it.
      </Text>
      <Text dimColor>Press Enter to save it in this folder.</Text>
      {exp.busy ? <Text dimColor>Working…</Text> : null}
      <Outcome problem={saved?.problem ?? exp.problem} notice={saved?.path ? ACCOUNT_MESSAGES.exported(saved.path) : null} />
    </Box>
  );
}
