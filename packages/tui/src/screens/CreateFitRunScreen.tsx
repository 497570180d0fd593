// Create a request with model training: name, a Ready upload, the sizes within the plan, task, explainability.
import { useState } from 'react';
import { Box, Text } from 'ink';
import { CONTACT_PATH, PLAN_LIMITS, TASKS, isUpgradeMessage, screenPath, type TaskName } from '@portal/core';
import { useFitRequest } from '@portal/core/react';
import { Form } from '../components/Form';
import { useLabel, useNav } from '../ui/context';

export default function CreateFitRunScreen() {
  const nav = useNav();
  const { clientId, bucketId } = nav.params as { clientId: string; bucketId: string };
  const fit = useFitRequest(clientId, bucketId);
  useLabel(bucketId, nav.labels[bucketId]);
  const [values, setValues] = useState<Record<string, string | boolean>>({ name: '', upload: '', inputs: '', outputs: '', target: '1', task: 'regression', explainability: false });
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const explainAllowed = PLAN_LIMITS[fit.plan].explainability;
  const submit = async () => {
    setBusy(true);
    const res = await fit.submit({
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
      <Text dimColor>Plan: {fit.plan} · up to {PLAN_LIMITS[fit.plan].inputColumns} inputs, {PLAN_LIMITS[fit.plan].outputColumns} outputs</Text>
      <Form
        fields={[
          { key: 'name', label: 'Name' },
          { key: 'upload', label: 'Upload (Ready)', kind: 'select', items: fit.readyUploads.map((r) => ({ label: r.name, value: r.stamp })) },
          { key: 'inputs', label: 'Input column size' },
          { key: 'outputs', label: 'Output column size' },
          { key: 'target', label: 'Task target size' },
          { key: 'task', label: 'Task', kind: 'select', items: TASKS.map((t) => ({ label: t, value: t })) },
          { key: 'explainability', label: 'Explainability', kind: 'checkbox', disabled: !explainAllowed },
        ]}
        values={values}
        onChange={(k, v) => setValues((s) => ({ ...s, [k]: v }))}
        errors={errors}
        submitLabel="Create Request"
        onSubmit={() => void submit()}
        busy={busy}
        message={problem ? { text: problem, error: true } : null}
      >
        {upgrade ? <Text color="cyan">Upgrade: {nav.io.baseUrl}{CONTACT_PATH}</Text> : null}
      </Form>
    </Box>
  );
}
