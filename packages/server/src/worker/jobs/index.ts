// The job table: one handler per job kind. A new kind is a file in this folder and a row here.
import type { JobKind } from '../queue';
import type { JobHandler } from './job';
import { analyze } from './analyze';
import { fit } from './fit';
import { generate } from './generate';
import { shrink } from './shrink';
import { mail } from './mail';

export const JOBS: Record<JobKind, JobHandler> = { analyze, fit, generate, shrink, mail };

export { CHANGED_MESSAGE, sentence } from './job';
export type { Job, JobContext, JobHandler, Outcome } from './job';
