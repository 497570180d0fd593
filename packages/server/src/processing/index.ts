// The worker's processing functions: upload analysis, fit, generate, shrink reports and the Python client wheel.
export { analyzeFile } from './analyze';
export type { Analysis, AnalysisLimits } from './analyze';

export { fitModel, generateEmbeddings } from './fit';
export type { FitResult, EmbeddingModel } from './fit';

export async function shrinkReport(_pyPath: string, _outPath: string): Promise<{ parameters: number }> {
  throw new Error('Shrink reports are not available yet on this server.');
}

export async function buildClientWheel(): Promise<{ fileName: string; bytes: Buffer }> {
  throw new Error('The Python client package is not available yet on this server.');
}
