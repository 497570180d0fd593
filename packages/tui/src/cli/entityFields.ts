// Every field name of the contract's objects, for telling a `--json` field list from a command's own argument (fields.ts).
// A chunk of its own: the entity and team modules themselves, never core's index as a namespace (see fields.ts).
import * as entities from '@portal/core/contract/entities';
import * as team from '@portal/core/contract/team';

export const entityFields = (): string[] =>
  [...Object.values(entities), ...Object.values(team)].flatMap((value) => {
    const shape = (value as { shape?: unknown } | null)?.shape;
    return shape && typeof shape === 'object' ? Object.keys(shape) : [];
  });
