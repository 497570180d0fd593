// Create a request with model training (name, a Ready upload, the sizes within the plan, task, explainability), or
// reusing one of the project's Finished models or a general model (the Model field).
import { useState } from 'react';
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
  type TaskName,
  printable,
} from '@portal/core';
import { useClient, useFitRequest } from '@portal/core/react';
import { Form } from '../components/Form';
import { useLabel, useNav } from '../ui/context';

export default function CreateFitRunScreen() {
  const nav = useNav();
  const { clientId, bucketId } = nav.params as { clientId: string; bucketId: string };
  const fit = useFitRequest(clientId, bucketId);
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
    if ('runId' in res) return nav.go(screenPath('runDetails', { clientId, bucketId, runId: res.runId }));
    setErrors(res.fieldErrors ?? {});
    setProblem(res.error);
  };
  const upgrade = Object.values(errors).some((m) => isUpgradeMessage(m ?? null, fit.plan));
  return (
    <Box flexDirection="column">
      <Text bold>Create Request</Text>

      <Form
        fields={[
          { key: 'name', label: 'Request name' },
          { key: 'upload', label: 'Upload', kind: 'select', items: fit.readyUploads.map((r) => ({ label: r.name, value: r.stamp })) },
          { key: 'inputs', label: `Input column size (1-${limits.inputColumns})` },
          { key: 'outputs', label: `Output column size (1-${limits.outputColumns})` },
          { key: 'target', label: `Task target size (1-${limits.taskTargetSize})` },
          { key: 'task', label: 'Task', kind: 'select', items: TASKS.map((t) => ({ label: t, value: t })) },
          { key: 'explainability', label: 'Explainability', kind: 'checkbox', disabled: !explainAllowed },
          ...(fit.reusable.length
            ? [
                {
                  key: 'model',
                  label: 'Model',
                  kind: 'select' as const,
                  items: [
                    { label: 'Train a new model', value: '' },
                    ...fit.reusable.map((m) => ({ label: `Reuse ${printable(m.name)}`, value: m.stamp })),
                  ],
                },
              ]
            : []),
          // The OpenAI text embeddings model takes a width; the field comes after Model, so the others keep their order.
          ...(isTextEmbeddingModel(String(values.model))
            ? [
                {
                  key: 'dimensions',
                  label: `Dimensions (1-${OPENAI_MAX_DIMENSIONS.toLocaleString('en-US')}, empty: ${OPENAI_DEFAULT_DIMENSIONS.toLocaleString('en-US')})`,
                },
              ]
            : []),
        ]}
        values={values}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: v }))}
        errors={errors}
        // The same rules as the submit's, as the values are typed (a reused model's sizes are its own).
        validate={(v) =>
          v.model
            ? {}
            : checkFitRequest(
                {
                  name: String(v.name),
                  upload: String(v.upload) || null,
                  inputs: String(v.inputs),
                  outputs: String(v.outputs),
                  target: String(v.target),
                  explainability: !!v.explainability,
                },
                fit.plan,
              )
        }
        submitLabel="Create Request"
        onSubmit={() => void submit()}
        busy={busy}
        message={problem ? { text: problem, error: true } : null}
        links={[{ label: 'Cancel', action: () => nav.go(screenPath('runs', { clientId, bucketId })) }]}
      >
        <Text dimColor>
          {fit.readyUploads.length === 0
            ? 'No Ready uploads yet: upload a .json file on the Uploads screen.'
            : 'Only Ready uploads can be chosen.'}
        </Text>
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
