// Create a shrink request: main view (name, description, upload, estimate), pick a Ready upload (reload control,
// polled), or upload a new .py model file.
import { useState } from 'react';
import { Box, Text, useInput } from 'ink';
import TextInput from 'ink-text-input';
import SelectInput from 'ink-select-input';
import { checkDropFiles, formatCount, formatDollars, freeCredits, screenPath, type UploadSource } from '@portal/core';
import { useClient, useNotify, useShrinkRequest, useUploads } from '@portal/core/react';
import { Form } from '../components/Form';
import { useCapture, useNav } from '../ui/context';
import { localSources, parsePaths } from './UploadsScreen';

type View = 'main' | 'pick' | 'upload';

export default function CreateShrinkRunScreen() {
  const nav = useNav();
  const notify = useNotify();
  const { clientId, bucketId } = nav.params as { clientId: string; bucketId: string };
  const shrink = useShrinkRequest(clientId, bucketId);
  const uploads = useUploads(clientId, bucketId);
  const { client } = useClient(clientId);
  const [view, setView] = useState<View>('main');
  const [values, setValues] = useState({ name: '', desc: '', upload: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  useCapture('all', view !== 'main');

  useInput((input, key) => {
    if (key.escape) setView('main');
    else if (view === 'pick' && input === 'r') shrink.reload();
  }, { isActive: view !== 'main' && !busy });

  const chosen = shrink.uploads.find((r) => r.stamp === values.upload);
  const submit = async () => {
    setBusy(true);
    const res = await shrink.submit(values);
    setBusy(false);
    if ('quoteId' in res) return nav.go(screenPath('quoteDetails', { clientId, bucketId, quoteId: res.quoteId }));
    setProblem(res.error);
  };
  const uploadNew = async (text: string) => {
    const files = localSources(nav.io.cwd, parsePaths(text));
    const bad = typeof files === 'string' ? files : checkDropFiles(files, 'shrink', client?.plan ?? 'Individual');
    if (bad) return notify(bad, 'error');
    setBusy(true);
    const failed = await uploads.upload(files as UploadSource[]);
    setBusy(false);
    if (!failed) {
      shrink.reload();
      setView('pick');
    }
  };

  if (view === 'pick') {
    return (
      <Box flexDirection="column">
        <Text bold>Pick an upload</Text>
        <Text dimColor>r reload now (also reloads by itself) · Esc back</Text>
        {shrink.readyUploads.length ? (
          <SelectInput
            items={shrink.readyUploads.map((r) => ({ label: `${r.name}  (${formatDollars(shrink.estimateCents([r.stamp]))})`, value: r.stamp }))}
            onSelect={(it) => {
              setValues((v) => ({ ...v, upload: it.value }));
              setProblem(null);
              // Switch after this Enter has been handled, so the main view's button does not receive it too.
              setTimeout(() => setView('main'), 0);
            }}
          />
        ) : (
          <Text>No Uploads Found</Text>
        )}
        {shrink.uploads.filter((r) => r.flight !== 'Ready').map((r) => <Text key={r.stamp} dimColor>{r.name}: {r.flight}</Text>)}
      </Box>
    );
  }
  if (view === 'upload') {
    return (
      <Box flexDirection="column">
        <Text bold>Upload a new file</Text>
        <Text dimColor>A single .py model file (at most 1 billion parameters) · Esc back</Text>
        <Box>
          <Text>Path: </Text>
          <TextInput value={path} onChange={setPath} onSubmit={(v) => void uploadNew(v)} />
        </Box>
        {busy ? <Text dimColor>Uploading…</Text> : null}
      </Box>
    );
  }
  const credits = shrink.billing ? freeCredits(shrink.billing) : null;
  return (
    <Box flexDirection="column">
      <Text bold>Create Shrink Request</Text>
      <Form
        fields={[
          { key: 'name', label: 'Name' },
          { key: 'desc', label: 'Description' },
        ]}
        values={values}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: String(v) }))}
        submitLabel="Create Shrink Request"
        onSubmit={() => void submit()}
        busy={busy}
        initialFocus={values.upload ? 2 : 0}
        links={[
          { label: `Pick an upload${chosen ? ` (chosen: ${chosen.name})` : ''}`, action: () => setView('pick') },
          { label: 'Upload a new file', action: () => setView('upload') },
        ]}
        message={problem ? { text: problem, error: true } : null}
      >
        <Text>Estimated price: {formatDollars(values.upload ? shrink.estimateCents([values.upload]) : 0)}</Text>
        {credits ? <Text>Free credits: {formatCount(credits.consumed)} of {formatCount(credits.total)} input parameters used</Text> : null}
      </Form>
    </Box>
  );
}
