// The worker's processing functions: upload analysis, fit, generate, shrink reports and the Python client wheel.
export { analyzeFile } from './analyze';
export type { Analysis, AnalysisLimits } from './analyze';

export { fitModel } from './fit';
export { generateEmbeddings } from './generate';
export type { FitResult } from './fit';
export type { EmbeddingModel } from './network';

export { epochReporter, rowReporter, PROGRESS_EVERY_MS } from './progress';
export type { ProcessingEvent, Reporter } from './progress';

export { shrinkReport } from './shrink';

export { buildClientWheel, WHEEL_FILE } from './wheel';
