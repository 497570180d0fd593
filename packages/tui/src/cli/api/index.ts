// `portal api`: a raw authenticated call to the API (gh api): prints the answer's JSON, exits 1 on a non-2xx answer.
import { commands } from '../verb';
import * as api from './api';

export const { register } = commands(api);
