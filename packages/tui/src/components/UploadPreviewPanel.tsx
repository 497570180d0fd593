// An upload file's preview under the uploads list: its first rows and column statistics in the terminal's width.
import { Box, Text } from 'ink';
import { useUploadPreview } from '@portal/core/react';
import { loadFailure, printable } from '@portal/core';
import { renderPreview } from '../cli/previewText';

/** Lines of the preview the panel shows (the terminal is 24 lines; `portal uploads preview` prints it whole). */
export const PREVIEW_PANEL_LINES = 10;

export function UploadPreviewPanel({ upload, name, width }: { upload: string; name: string; width: number }) {
  const preview = useUploadPreview(upload);
  const lines = preview.data ? renderPreview(preview.data, width).trimEnd().split('\n') : [];
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        Preview of {printable(name)} <Text dimColor>· p or Esc close · portal uploads preview shows it all</Text>
      </Text>
      {preview.error ? <Text color="red">{loadFailure(preview.error)}</Text> : null}
      {!preview.data && !preview.error ? <Text dimColor>Loading…</Text> : null}
      {lines.slice(0, PREVIEW_PANEL_LINES).map((l, i) => (
        <Text key={i} wrap="truncate-end">
          {l || ' '}
        </Text>
      ))}
    </Box>
  );
}
