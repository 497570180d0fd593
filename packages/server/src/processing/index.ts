// The worker's processing functions: upload analysis, fit, generate, shrink reports and the Python client wheel.
export { analyzeFile } from './analyze';
export type { Analysis, AnalysisLimits } from './analyze';

import type { FitParam } from '@portal/core';

export interface FitResult {
  model: unknown;
  summary: string;
  importance?: number[];
}

export async function fitModel(_dataPath: string, _param: FitParam, _opts?: { seed?: number }): Promise<FitResult> {
  throw new Error('Training is not available yet on this server.');
}

export async function generateEmbeddings(_model: unknown, _dataPath: string, _outPath: string): Promise<{ rows: number; width: number }> {
  throw new Error('Generating embeddings is not available yet on this server.');
}

export async function shrinkReport(_pyPath: string, _outPath: string): Promise<{ parameters: number }> {
  throw new Error('Shrink reports are not available yet on this server.');
}

export async function buildClientWheel(): Promise<{ fileName: string; bytes: Buffer }> {
  throw new Error('The Python client package is not available yet on this server.');
}
