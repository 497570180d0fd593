// Uploads of a project: upload local files (streamed, hashed while read, with a progress bar), rename, remove.
import { useRef, useState } from 'react';
import { statSync } from 'node:fs';
import { Box, Text, useInput } from 'ink';
import {
  MESSAGES,
  checkDropFiles,
  formatSize,
  formatTime,
  type Upload,
  type UploadProgress,
  type UploadSource,
  uploadError,
} from '@portal/core';
import { fileSource } from '@portal/core/node';
import { useClient, useNotify, useUploads } from '@portal/core/react';
import { ListView, useLongList } from '../components/ListView';
import { PREVIEW_PANEL_LINES, UploadPreviewPanel } from '../components/UploadPreviewPanel';
import { TextField } from '../components/TextField';
import { completePath, expandPath, splitPaths } from '../paths';
import { fromList } from '../components/lists';
import { progressLine } from '../cli/progress';
import { useCapture, useLabel, useNav } from '../ui/context';

/** Paths typed by the user: separated by spaces; quotes or a backslash keep a path with spaces together. */
export const parsePaths = splitPaths;

/** Local files as upload sources, or the message saying which one cannot be read. */
export function localSources(cwd: string, paths: string[]): UploadSource[] | string {
  const out: UploadSource[] = [];
  for (const p of paths) {
    const full = expandPath(p, cwd);
    try {
      if (!statSync(full).isFile()) return `Cannot upload ${p}: not a file`;
    } catch {
      return `Cannot read ${p}: no such file`;
    }
    out.push(fileSource(full));
  }
  return out;
}

/** The upload prompt's label: short, so the paths have the line (the keys are said under it). */
const FILES_LABEL = 'Files to upload: ';

export default function UploadsScreen() {
  const nav = useNav();
  const notify = useNotify();
  const { clientId, projectId } = nav.params as { clientId: string; projectId: string };
  const paging = useLongList();
  const uploads = useUploads(clientId, projectId, paging);
  const { client } = useClient(clientId);
  useLabel(clientId, client?.name);
  useLabel(projectId, uploads.data?.project?.name);
  // Uploads being analysed move to Ready or Failed on the server: the list refreshes until they settle.
  const [asking, setAsking] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<{ stamp: string; name: string } | null>(null);
  const [progress, setProgress] = useState<{ p: UploadProgress; started: number } | null>(null);
  // While files are sent, Esc cancels them (the half-made upload is removed), as the web's cancel button does.
  const abort = useRef<AbortController | null>(null);
  useCapture('all', asking !== null || progress !== null);
  useInput(
    (_input, key) => {
      if (!key.escape) return;
      if (abort.current) abort.current.abort();
      else setAsking(null);
    },
    { isActive: asking !== null || progress !== null },
  );
  useInput(
    (_input, key) => {
      if (key.escape) setPreviewing(null);
    },
    { isActive: previewing !== null && asking === null },
  );

  const start = async (text: string) => {
    const paths = parsePaths(text);
    if (!paths.length) return setAsking(null);
    const files = localSources(nav.io.cwd, paths);
    const problem = typeof files === 'string' ? files : checkDropFiles(files, 'uploads', client?.plan ?? 'Individual');
    if (problem) return notify(problem, 'error');
    setAsking(null);
    let started = Date.now();
    let index = -1;
    const controller = (abort.current = new AbortController());
    setProgress({ p: { file: (files as UploadSource[])[0].name, index: 0, loaded: 0, total: (files as UploadSource[])[0].size }, started });
    // Success, failure and cancel are notified by core's hook.
    await uploads.upload(files as UploadSource[], {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.index !== index) {
          index = p.index;
          started = Date.now();
        }
        setProgress({ p, started });
      },
    });
    abort.current = null;
    setProgress(null);
  };

  return (
    <Box flexDirection="column">
      <ListView<Upload>
        title="Uploads"
        {...fromList(uploads, uploads.data?.uploads, paging, MESSAGES.fetchUploads)}
        empty={MESSAGES.noUploads}
        nameOf={(r) => r.name}
        active={asking === null}
        cols={[
          { header: 'Name', keep: true, get: (r) => r.name },
          { header: 'Status', keep: true, get: (r) => r.flight },
          {
            header: 'Files',
            get: (r) => r.upload.list.map((i) => `${i.name} (${formatSize(i.file.size)}): ${i.state}`).join(', '),
            max: 50,
          },
          { header: 'Requests', get: (r) => r.runs },
          { header: 'Created', get: (r) => formatTime(r.createdAt), at: (r) => r.createdAt },
          { header: 'Error', get: (r) => uploadError(r), danger: () => true, max: 50 },
        ]}
        rename={uploads.rename}
        remove={uploads.remove}
        onNew={() => setAsking('')}
        reserve={previewing ? PREVIEW_PANEL_LINES + 1 : 0}
        onKey={(input, row) => {
          if (input !== 'p') return false;
          // p shows the first finished file of the selected upload, and closes the preview again.
          const item = row?.upload.list.find((i) => i.state === 'Finished');
          setPreviewing((open) => (open || !item ? null : { stamp: item.stamp, name: item.name }));
          if (!item) notify('This upload has no finished file to preview yet.');
          return true;
        }}
      />
      {previewing ? (
        <UploadPreviewPanel upload={previewing.stamp} name={previewing.name} width={nav.size.columns - nav.size.menu - 2} />
      ) : null}
      {asking !== null ? (
        <Box flexDirection="column">
          <Box>
            <Text>{FILES_LABEL}</Text>
            <TextField
              value={asking}
              onChange={setAsking}
              onSubmit={(v) => void start(v)}
              complete={(v) => completePath(v, nav.io.cwd)}
              width={nav.size.columns - nav.size.menu - 2 - FILES_LABEL.length}
            />
          </Box>
          <Text dimColor wrap="truncate-end">
            Paths separated by spaces · Tab completes · Enter uploads · Esc cancels
          </Text>
        </Box>
      ) : null}
      {progress ? <Text color="cyan">{progressLine(progress.p, Date.now() - progress.started)} · Esc cancel</Text> : null}
    </Box>
  );
}
