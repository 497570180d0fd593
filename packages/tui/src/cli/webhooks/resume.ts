// `portal webhooks resume <id>`.
import { activeVerb } from './shared';

export const { options, run } = activeVerb(1);
