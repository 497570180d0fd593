// `portal webhooks pause <id>`: events are kept for the endpoint and sent once it is resumed.
import { activeVerb } from './shared';

export const { options, run } = activeVerb(0);
