// Create a request with model training (name, a Ready upload, then its columns: the target, the inputs within the plan,
// the task and a line per size; an upload without named columns takes the sizes typed), or reusing one of the
// project's Finished models or a general model (the Model field; one that needs an integration key says so).
import { useMemo, useState } from 'react';
import { Box, Text } from 'ink';
import {
  CONTACT_PATH,
  OPENAI_DEFAULT_DIMENSIONS,
  OPENAI_MAX_DIMENSIONS,
  PLAN_LIMITS,
  TASKS,
  checkFitRequest,
  isTextEmbeddingModel,
  isUpgradeMessage,
  screenPath,
  TEXT_EMBEDDING_MESSAGES,
  type TaskName,
  printable,
} from '@portal/core';
import { useClient, useFitRequest } from '@portal/core/react';
import { Form } from '../components/Form';
import { useLabel, useNav } from '../ui/context';

export default function CreateFitRunScreen() {
  const nav = useNav();
  const { clientId, projectId } = nav.params as { clientId: string; projectId: string };
  const fit = useFitRequest(clientId, projectId);
  const { client } = useClient(clientId);
  useLabel(clientId, client?.name);
  const [values, setValues] = useState<Record<string, string | boolean>>({
    name: '',
    upload: '',
    inputs: '',
    outputs: '',
    target: '1',
    task: 'regression',
    explainability: false,
    model: '',
    dimensions: '',
  });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const explainAllowed = PLAN_LIMITS[fit.plan].explainability;
  const limits = PLAN_LIMITS[fit.plan];
  // The chosen upload's named columns (core's useFitColumns): the picks replace the three size fields.
  const cols = fit.columns;
  const named = cols.columns.length > 0 && !values.model;
  const picked: Record<string, string | boolean> = named
    ? { targetColumn: cols.picks.target, task: cols.picks.task, outputs: cols.outputs || String(cols.sizes.outputs) }
    : {};
  const inputValues = named ? Object.fromEntries(cols.columns.map((c) => [`input:${c.name}`, cols.picks.inputs.includes(c.name)])) : {};
  const change = (k: string, v: string | boolean) => {
    if (named && k === 'targetColumn') return cols.setTarget(String(v));
    if (named && k.startsWith('input:')) return cols.toggleInput(k.slice('input:'.length));
    if (named && k === 'task') return cols.setTask(v as TaskName);
    if (named && k === 'outputs') return cols.setOutputs(String(v));
    // The hook reads the chosen upload's columns.
    if (k === 'upload') fit.choose(String(v));
    setValues((s) => ({ ...s, [k]: v }));
  };
  const sizeFields = named
    ? [
        {
          key: 'targetColumn',
          label: 'Target column',
          kind: 'select' as const,
          items: [
            { label: 'None picked', value: '' },
            ...cols.columns.map((c) => ({ label: `${printable(c.name)} (${c.type})`, value: c.name })),
          ],
        },
        ...cols.columns.map((c) => ({
          key: `input:${c.name}`,
          label: `Input ${printable(c.name)} (${c.name === cols.picks.target ? 'target' : c.type})`,
          kind: 'checkbox' as const,
          disabled: c.name === cols.picks.target,
        })),
        { key: 'task', label: 'Task', kind: 'select' as const, items: TASKS.map((t) => ({ label: t, value: t })) },
        { key: 'outputs', label: `Output column size (1-${limits.outputColumns})` },
      ]
    : [
        { key: 'inputs', label: `Input column size (1-${limits.inputColumns})` },
        { key: 'outputs', label: `Output column size (1-${limits.outputColumns})` },
        { key: 'target', label: `Task target size (1-${limits.taskTargetSize})` },
        { key: 'task', label: 'Task', kind: 'select' as const, items: TASKS.map((t) => ({ label: t, value: t })) },
      ];
  const submit = async () => {
    setBusy(true);
    const model = String(values.model ?? '');
    const res = model
      ? await fit.reuse({ name: String(values.name), model, upload: String(values.upload) || null, dimensions: String(values.dimensions) })
      : await fit.submit({
          name: String(values.name),
          upload: String(values.upload) || null,
          inputs: String(values.inputs),
          outputs: String(values.outputs),
          target: String(values.target),
          task: values.task as TaskName,
          explainability: !!values.explainability,
        });
    setBusy(false);
    if ('runId' in res) return nav.go(screenPath('runDetails', { clientId, projectId, runId: res.runId }));
    setErrors(res.fieldErrors ?? {});
    setProblem(res.error);
  };
  // One object per change of what is shown (the form takes a new errors object as a new set of errors to show).
  const { target: targetError, task: taskError } = cols.errors;
  const shownErrors = useMemo(
    () => (named ? { ...errors, targetColumn: targetError, task: taskError } : errors),
    [named, errors, targetError, taskError],
  );
  const capOrInputs = named ? (cols.errors.inputs ?? cols.cap) : null;
  const upgrade = [...Object.values(errors), capOrInputs].some((m) => isUpgradeMessage(m ?? null, fit.plan));
  const gated = fit.reusable.filter((m) => fit.needsKey(m.stamp));
  return (
    <Box flexDirection="column">
      <Text bold>Create Request</Text>

      <Form
        fields={[
          { key: 'name', label: 'Request name' },
          { key: 'upload', label: 'Upload', kind: 'select', items: fit.readyUploads.map((r) => ({ label: r.name, value: r.stamp })) },
          // A reused model brings its own sizes: Enter does not stop at them (the form's Enter rule skips optional fields).
          ...(values.model ? sizeFields.map((f) => ({ ...f, optional: true })) : sizeFields),
          { key: 'explainability', label: 'Explainability', kind: 'checkbox', disabled: !explainAllowed },
          ...(fit.reusable.length
            ? [
                {
                  key: 'model',
                  label: 'Model',
                  kind: 'select' as const,
                  items: [
                    { label: 'Train a new model', value: '' },
                    // A model that needs an integration key is listed but cannot be picked without one (see below).
                    ...fit.reusable
                      .filter((m) => !fit.needsKey(m.stamp))
                      .map((m) => ({ label: `Reuse ${printable(m.name)}`, value: m.stamp })),
                  ],
                },
              ]
            : []),
          // The OpenAI text embeddings model takes a width; the field comes after Model, so the others keep their order.
          ...(isTextEmbeddingModel(String(values.model))
            ? [
                {
                  key: 'dimensions',
                  optional: true,
                  label: `Dimensions (1-${OPENAI_MAX_DIMENSIONS.toLocaleString('en-US')}, empty: ${OPENAI_DEFAULT_DIMENSIONS.toLocaleString('en-US')})`,
                },
              ]
            : []),
        ]}
        values={{ ...values, ...picked, ...inputValues }}
        onChange={change}
        errors={shownErrors}
        // The same rules as the submit's, as the values are typed (a reused model's sizes are its own).
        validate={(v) =>
          v.model
            ? {}
            : checkFitRequest(
                {
                  name: String(v.name),
                  upload: String(v.upload) || null,
                  inputs: named ? cols.sizes.inputs : String(v.inputs),
                  outputs: String(v.outputs),
                  target: named ? 1 : String(v.target),
                  explainability: !!v.explainability,
                },
                fit.plan,
              )
        }
        submitLabel="Create Request"
        onSubmit={() => void submit()}
        busy={busy}
        message={problem ? { text: problem, error: true } : null}
        links={[{ label: 'Cancel', action: () => nav.go(screenPath('runs', { clientId, projectId })) }]}
      >
        <Text dimColor>
          {fit.readyUploads.length === 0
            ? 'No Ready uploads yet: upload a .json file on the Uploads screen.'
            : 'Only Ready uploads can be chosen.'}
        </Text>
        {named ? (
          <>
            {capOrInputs ? <Text color="yellow">{capOrInputs}</Text> : null}
            <Text dimColor>{cols.lines.inputs}</Text>
            <Text dimColor>{cols.lines.outputs}</Text>
            <Text dimColor>{cols.lines.target}</Text>
            <Text dimColor>Task: inferred from the target (classes → classification, numbers → regression).</Text>
          </>
        ) : fit.upload && cols.loading ? (
          <Text dimColor>Reading the columns of the upload…</Text>
        ) : null}
        {gated.map((m) => (
          <Text key={m.stamp} dimColor>
            {printable(m.name)}: {TEXT_EMBEDDING_MESSAGES.noKey} (Integrations screen)
          </Text>
        ))}
        {!explainAllowed ? <Text dimColor>Explainability: not available on the Individual plan.</Text> : null}
        {upgrade ? (
          <Text color="cyan">
            Upgrade: {nav.io.baseUrl}
            {CONTACT_PATH}
          </Text>
        ) : null}
      </Form>
    </Box>
  );
}
