// `portal ui [ROUTE|URL]`: the interactive UI opened on the screen of a web portal path or a URL pasted from the
// browser (core's one screen table gives every web URL its terminal screen).
import { commands } from '../verb';
import * as ui from './ui';

export const { register } = commands(ui);
