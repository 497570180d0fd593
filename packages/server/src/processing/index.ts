// The worker's processing functions: upload analysis, fit, generate, shrink reports and the Python client wheel.
export { analyzeFile } from './analyze';
export type { Analysis, AnalysisLimits } from './analyze';

export { fitModel, generateEmbeddings } from './fit';
export type { FitResult, EmbeddingModel } from './fit';

export { epochReporter, rowReporter, PROGRESS_EVERY_MS } from './progress';
export type { ProcessingEvent, Reporter } from './progress';

export { shrinkReport } from './shrink';

export { buildClientWheel, WHEEL_FILE } from './wheel';
