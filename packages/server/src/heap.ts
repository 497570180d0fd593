// V8 settings for a long-running API process, applied before anything else is loaded (main.ts imports this first).
import { setFlagsFromString } from 'node:v8';

/**
 * No allocation-site pretenuring. V8 watches where objects are made and, when most of one site's objects outlive a
 * young-generation collection, makes that site's objects in the old generation from then on. A burst of writes
 * (a sign-up and a hundred new projects, one at a time) taught it that request-scoped objects shared with the read
 * calls live long; afterwards every list call's rows and answers went straight to the old generation, scavenges
 * took 3.5-5 ms instead of 0.7 ms and the process served the project list 20-30 % slower for the rest of its life
 * (bench/api's README, "A process that has served writes"). Request objects die young: the young generation is
 * where they belong.
 */
setFlagsFromString('--no-allocation-site-pretenuring');
