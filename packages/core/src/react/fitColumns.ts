// The fit form's column picks for the chosen upload: its analysed columns, the target, the inputs, the task and the
// three sizes they make (rules in rules/fitColumns); every door's fit form renders this.
import { useCallback, useMemo, useState } from 'react';
import type { Upload } from '../contract';
import type { PlanName, TaskName } from '../limits';
import {
  checkFitPicks,
  defaultPicks,
  extensionOf,
  inputCapMessage,
  namedColumns,
  pickTarget,
  sizeLines,
  sizesFromPicks,
  toggleInput,
  type FitColumn,
  type FitColumnErrors,
  type FitPicks,
} from '../rules';
import { useUploadPreview } from './preview';

export interface FitColumnsState {
  /** The chosen upload's analysed columns (empty until known, or when its file is not a table). */
  columns: FitColumn[];
  /** True while the chosen upload's columns are being read. */
  loading: boolean;
  /** Columns the table has beyond those listed (a table wider than the analysis keeps). */
  unlisted: number;
  picks: FitPicks;
  setTarget(name: string): void;
  toggleInput(name: string): void;
  setTask(task: TaskName): void;
  /** The output column size as typed ('' for the one derived from the inputs). */
  outputs: string;
  setOutputs(value: string): void;
  /** SPEC's three sizes as they will be sent. */
  sizes: { inputs: number; outputs: number | string; target: number };
  /** One line on what each size means for this table. */
  lines: { inputs: string; outputs: string; target: string };
  /** SPEC's plan sentence when the table has more input columns than the plan takes (shown with the upgrade link). */
  cap: string | null;
  /** What is wrong with the picks now (empty when they can be sent). */
  errors: FitColumnErrors;
}

/** The Finished .json file of an upload that a fit reads. */
const tableFile = (upload: Upload | undefined) =>
  upload?.upload.list.find((i) => i.state === 'Finished' && extensionOf(i.name) === '.json');

export function useFitColumns(chosen: Upload | undefined, plan: PlanName): FitColumnsState {
  const file = tableFile(chosen);
  const preview = useUploadPreview(file?.stamp ?? null);
  const table = preview.data?.kind === 'table' ? preview.data : undefined;
  const columns: FitColumn[] = useMemo(() => namedColumns(table), [table]);
  // Picks belong to one file's columns: a newly chosen upload starts again from its defaults.
  const [held, setHeld] = useState<{ file: string; picks: FitPicks; outputs: string } | null>(null);
  const fileId = file?.stamp ?? '';
  const current = held && held.file === fileId ? held : null;
  const picks = useMemo(() => current?.picks ?? defaultPicks(columns, plan), [current, columns, plan]);
  const outputs = current?.outputs ?? '';
  const update = useCallback(
    (next: Partial<{ picks: FitPicks; outputs: string }>) =>
      setHeld((h) => {
        const base = h && h.file === fileId ? h : { file: fileId, picks, outputs };
        return { ...base, ...next };
      }),
    [fileId, picks, outputs],
  );
  const derived = sizesFromPicks(picks, plan);
  const sentOutputs = outputs.trim() === '' ? derived.outputs : outputs;
  return {
    columns,
    loading: !!file && preview.loading,
    unlisted: Math.max(0, (table?.totalCols ?? 0) - columns.length),
    picks,
    setTarget: (name) => update({ picks: pickTarget(columns, picks, name, plan) }),
    toggleInput: (name) => update({ picks: toggleInput(columns, picks, name) }),
    setTask: (task) => update({ picks: { ...picks, task } }),
    outputs,
    setOutputs: (value) => update({ outputs: value }),
    sizes: { inputs: derived.inputs, outputs: sentOutputs, target: 1 },
    lines: sizeLines(picks, Number(sentOutputs) || derived.outputs),
    cap: inputCapMessage(columns, picks.target, plan),
    errors: columns.length ? checkFitPicks(columns, picks, plan) : {},
  };
}
