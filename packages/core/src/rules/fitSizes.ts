// The column sizes a fit on an upload would use, from the upload's analysis: every door's fit form starts from them.
import { PLAN_LIMITS, type PlanName } from '../limits';

interface AnalysedGroup {
  upload: { list: ReadonlyArray<{ name: string; state: string; meta: { cols: number | null } }> };
}

/**
 * Fit data rows hold `input_column_size` inputs then `task_target_size` targets (DESIGN.md), so the analysed .json
 * file's columns less the target are the inputs; the outputs start at the inputs, within the plan's limit. Null when
 * the upload has no analysed .json file with more columns than the target.
 */
export function fitSizesOf(upload: AnalysedGroup | undefined, plan: PlanName, target = 1): { inputs: number; outputs: number } | null {
  const file = upload?.upload.list.find(
    (i) => i.state === 'Finished' && i.name.toLowerCase().endsWith('.json') && (i.meta.cols ?? 0) > target,
  );
  if (!file) return null;
  const inputs = file.meta.cols! - target;
  return { inputs, outputs: Math.max(1, Math.min(inputs, PLAN_LIMITS[plan].outputColumns)) };
}
