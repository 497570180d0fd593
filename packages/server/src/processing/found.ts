// What a format reader reports about an upload before the plan's limits are applied.

export interface AnalysisLimits {
  rows: number;
  inputColumns: number;
  maxParameters: number;
}

export type Found = { ok: true; rows: number | null; cols: number | null; inputs: number | null } | { ok: false; error: string };

export type Reader = (buf: Uint8Array, limits: AnalysisLimits) => Found | Promise<Found>;

export const fail = (error: string): Found => ({ ok: false, error });
