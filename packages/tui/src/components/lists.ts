// What list screens share with the web portal's tables: newest first.

/** Newest first (the web portal's tables open sorted by Created, descending). */
export function newestFirst<T extends { createdAt: number }>(rows: readonly T[] | undefined): T[] | undefined {
  return rows && [...rows].sort((a, b) => b.createdAt - a.createdAt);
}
