// Create a shrink request: main view (name, description, the model upload, estimate - free credit = amount due),
// pick a Ready upload (reload control, polled), or upload a new .py model file, which is then chosen; a y/n question
// before the quote is created. A renderer of core's useShrinkRequest.
import { useEffect, useState } from 'react';
import { Box, Text, useInput } from 'ink';
import SelectInput from 'ink-select-input';
import {
  DESCRIPTION_MAX,
  MESSAGES,
  checkDropFiles,
  formatCount,
  formatDollars,
  formatTime,
  freeCredits,
  screenPath,
  type UploadSource,
  printable,
} from '@portal/core';
import { useClient, useNotify, useShrinkRequest, useUploads } from '@portal/core/react';
import { Form } from '../components/Form';
import { useCapture, useLabel, useNav } from '../ui/context';
import { localSources, parsePaths } from './UploadsScreen';
import { TextField } from '../components/TextField';
import { completePath } from '../paths';

type View = 'main' | 'pick' | 'upload';

export default function CreateShrinkRunScreen() {
  const nav = useNav();
  const notify = useNotify();
  const { clientId, projectId } = nav.params as { clientId: string; projectId: string };
  const shrink = useShrinkRequest(clientId, projectId);
  const uploads = useUploads(clientId, projectId);
  const { client } = useClient(clientId);
  useLabel(clientId, client?.name);
  useLabel(projectId, shrink.project ?? uploads.data?.project?.name);
  const [view, setView] = useState<View>('main');
  const [values, setValues] = useState({ name: '', desc: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const asking = view === 'main' && shrink.question !== null;
  useCapture('all', view !== 'main' || asking);

  useInput(
    (input, key) => {
      if (key.escape) setView('main');
      else if (view === 'pick' && input === 'r') void shrink.reload();
    },
    { isActive: view !== 'main' && !busy },
  );

  const chosen = shrink.chosen;
  // A model uploaded from here is chosen as soon as it appears in the list (it may still be processing), as on the web.
  const [fresh, setFresh] = useState<string | null>(null);
  const { choose } = shrink;
  useEffect(() => {
    if (!fresh || !shrink.uploads.some((r) => r.stamp === fresh)) return;
    choose(fresh);
    setFresh(null);
  }, [fresh, shrink.uploads, choose]);
  const submit = () => {
    const res = shrink.review(values);
    setProblem('error' in res ? res.error : null);
  };
  const confirm = async () => {
    setBusy(true);
    const res = await shrink.confirm();
    setBusy(false);
    if ('quoteId' in res) return nav.go(screenPath('quoteDetails', { clientId, projectId, quoteId: res.quoteId }));
    setProblem(res.error);
  };
  useInput(
    (input, key) => {
      if (input === 'y' || input === 'Y') void confirm();
      else if (input === 'n' || input === 'N' || key.escape) shrink.cancel();
    },
    { isActive: asking && !busy },
  );
  const uploadNew = async (text: string) => {
    const files = localSources(nav.io.cwd, parsePaths(text));
    const bad = typeof files === 'string' ? files : checkDropFiles(files, 'shrink', client?.plan ?? 'Individual');
    if (bad) return notify(bad, 'error');
    setBusy(true);
    const { upload } = await uploads.upload(files as UploadSource[]);
    setBusy(false);
    if (upload) {
      setFresh(upload);
      setProblem(null);
      void shrink.reload();
      setView('main');
    }
  };

  if (view === 'pick') {
    return (
      <Box flexDirection="column">
        <Text bold>Pick an upload</Text>
        <Text dimColor>Only Ready uploads can be chosen. This list refreshes by itself; r reloads at once · Esc back</Text>
        {shrink.readyUploads.length ? (
          <SelectInput
            items={shrink.readyUploads.map((r) => ({
              label: `${printable(r.name)}  (${formatDollars(shrink.estimateCents([r.stamp]))}, ${formatTime(r.createdAt)})`,
              value: r.stamp,
            }))}
            onSelect={(it) => {
              shrink.choose(it.value);
              setProblem(null);
              // Switch after this Enter has been handled, so the main view's button does not receive it too.
              setTimeout(() => setView('main'), 0);
            }}
          />
        ) : (
          <Text>{MESSAGES.noUploads}</Text>
        )}
        {shrink.uploads
          .filter((r) => r.flight !== 'Ready')
          .map((r) => (
            <Text key={r.stamp} dimColor>
              {printable(r.name)}: {r.flight}
            </Text>
          ))}
      </Box>
    );
  }
  if (view === 'upload') {
    return (
      <Box flexDirection="column">
        <Text bold>Upload a model</Text>
        <Text>A single .py file defining a model of at most 1 billion parameters.</Text>
        <Box>
          <Text>Path: </Text>
          <TextField
            value={path}
            onChange={setPath}
            onSubmit={(v) => void uploadNew(v)}
            complete={(v) => completePath(v, nav.io.cwd)}
            width={nav.size.columns - nav.size.menu - 8}
          />
        </Box>
        <Text dimColor>Tab complete · Enter upload · Esc back</Text>
        {busy ? <Text dimColor>Uploading…</Text> : null}
      </Box>
    );
  }
  const credits = shrink.billing ? freeCredits(shrink.billing) : null;
  const price = (
    <>
      <Text>Model upload: {chosen ? `${printable(chosen.name)} (${chosen.flight})` : 'No upload selected.'}</Text>
      <Text>{shrink.priceText ?? `Estimated price: ${formatDollars(shrink.upload ? shrink.estimateCents([shrink.upload]) : 0)}`}</Text>
      {credits ? (
        <>
          <Text>
            Free credits: {formatCount(credits.consumed)} of {formatCount(credits.total)} input parameters used
          </Text>
          <Text>Outstanding balance: {formatDollars(shrink.billing!.accountCentBalance)}</Text>
        </>
      ) : (
        <Text dimColor>Loading billing…</Text>
      )}
    </>
  );
  if (asking) {
    return (
      <Box flexDirection="column">
        <Text bold>Create Shrink Request</Text>
        <Text>Request name: {values.name}</Text>
        {price}
        <Text color="yellow">{shrink.question}</Text>
        <Text dimColor>y create · n back to the form</Text>
        {busy ? <Text dimColor>Creating…</Text> : null}
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <Text bold>Create Shrink Request</Text>
      <Form
        fields={[
          { key: 'name', label: 'Request name' },
          { key: 'desc', label: `Description (${values.desc.length}/${DESCRIPTION_MAX})` },
        ]}
        values={values}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: String(v) }))}
        submitLabel="Create Quote"
        onSubmit={submit}
        busy={busy}
        initialFocus={shrink.upload ? 2 : 0}
        links={[
          { label: 'Pick an existing upload', action: () => setView('pick') },
          { label: 'Upload a new model file', action: () => setView('upload') },
          { label: 'Cancel', action: () => nav.go(screenPath('runs', { clientId, projectId })) },
        ]}
        message={problem ? { text: problem, error: true } : null}
      >
        {price}
      </Form>
    </Box>
  );
}
