// Types of local-cluster.mjs for the cluster test.
import type { ChildProcess } from 'node:child_process';

export interface ClusterProcess {
  name: string;
  child: ChildProcess;
  port?: number;
  readonly alive: boolean;
  log(): string;
  stop(graceMs?: number): Promise<void>;
  kill(): Promise<void>;
}

export interface Cluster {
  url: string;
  dir: string;
  apis: ClusterProcess[];
  workers: ClusterProcess[];
  databaseUrl: string;
  /**
   * Takes API process i out of nginx's rotation, stops it with SIGTERM (it drains), starts a new one on its port and
   * puts it back once it is ready.
   */
  restartApi(i: number): Promise<void>;
  stop(): Promise<void>;
}

export function nginxPath(): string | null;
export function freePort(): Promise<number>;
export function startCluster(opts?: {
  apis?: number;
  workers?: number;
  port?: number;
  adminUrl?: string;
  drainS?: number;
}): Promise<Cluster>;
