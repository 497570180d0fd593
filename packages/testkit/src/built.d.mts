// The types of built.mjs.
import type { ChildProcess } from 'node:child_process';

export interface Started {
  child: ChildProcess;
  /** The first group of the `ready` match: the server's URL. */
  url: string;
  /** Ends it (SIGTERM) and resolves once it has. */
  stop(): Promise<void>;
}

/** What every started server is told: a free port on loopback, warnings only, no metrics port, no wait on stopping. */
export declare const BUILT_ENV: Record<string, string>;

export declare function startProcess(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs?: number): Promise<Started>;

export declare function startBuilt(
  env: Record<string, string> & { DATA_DIR: string },
  opts?: { args?: string[]; nodeArgs?: string[]; ready?: RegExp; timeoutMs?: number },
): Promise<Started>;
