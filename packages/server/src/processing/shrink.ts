// The shrink result: a compression report of a .py model (parameters per layer and sizes at fp32, fp16, int8).
import { readFile, writeFile } from 'node:fs/promises';
import { SHRINK_MAX_PARAMETERS } from '@portal/core';
import { readPyModel } from './pymodel';

const sizes = (parameters: number) => ({ fp32: parameters * 4, fp16: parameters * 2, int8: parameters });

export async function shrinkReport(pyPath: string, outPath: string): Promise<{ parameters: number }> {
  let source: string;
  try {
    source = await readFile(pyPath, 'utf8');
  } catch {
    throw new Error('The model file could not be read from storage; please upload it again.');
  }
  let r: ReturnType<typeof readPyModel>;
  try {
    r = readPyModel(source);
  } catch (e) {
    // A reading bug must reach the log (as the cause), never the user as stack or engine text.
    throw new Error('This model file could not be read; check that it is a valid Python file that builds torch.nn layers.', { cause: e });
  }
  if (!r.ok) throw new Error(r.error);
  if (r.parameters > SHRINK_MAX_PARAMETERS) {
    throw new Error(
      `This model has ${r.parameters.toLocaleString('en-US')} parameters; shrink accepts models of at most 1 billion parameters.`,
    );
  }
  const report = {
    format: 'compression-report',
    parameters: r.parameters,
    bytes: sizes(r.parameters),
    // int8 keeps one fp32 scale per output row in practice; the figure here is the weights alone.
    savings: { fp16: 0.5, int8: 0.75 },
    layers: r.layers.map((l) => ({
      name: l.name,
      type: l.type,
      line: l.line,
      count: l.count,
      ...(l.tiedTo ? { tiedTo: l.tiedTo } : {}),
      parameters: l.parameters,
      totalParameters: l.parameters * l.count,
      bytes: sizes(l.parameters * l.count),
    })),
  };
  await writeFile(outPath, JSON.stringify(report, null, 2) + '\n');
  return { parameters: r.parameters };
}
