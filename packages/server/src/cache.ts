// A short-lived cache of project-list answers (microcaching): the hottest read skips the database for a moment.
// Writes in this process drop the client's entries at once; other API processes see a change within twice the TTL.

interface Entry {
  client: string;
  at: number;
  body: string;
}

export class ListCache {
  private readonly entries = new Map<string, Entry>();
  /** Loads under way: concurrent misses of one key share one database query instead of stampeding. */
  private readonly loading = new Map<string, Promise<string>>();
  /** Bumped by every write to a client, so a load that raced a write is not kept. */
  private readonly generation = new Map<string, number>();

  constructor(private readonly ttlMs: number) {}

  async get(key: string, client: string, load: () => Promise<{ body: string; client: string }>): Promise<string> {
    if (this.ttlMs <= 0) return (await load()).body;
    const e = this.entries.get(key);
    const age = e ? Date.now() - e.at : Infinity;
    if (e && age <= this.ttlMs) return e.body;
    const pending = this.loading.get(key);
    // Just past its time, the answer is still served while one load refreshes it: no request waits on the database.
    if (e && age <= 2 * this.ttlMs) {
      if (!pending) this.refresh(key, client, load).catch(() => {});
      return e.body;
    }
    if (pending) return pending;
    return this.refresh(key, client, load);
  }

  private refresh(key: string, client: string, load: () => Promise<{ body: string; client: string }>): Promise<string> {
    const gen = this.generation.get(client) ?? 0;
    const p = load().then(
      (r) => {
        this.loading.delete(key);
        if ((this.generation.get(client) ?? 0) === gen) {
          // Bounded: a burst of distinct keys cannot grow memory without limit.
          if (this.entries.size >= 10_000) this.entries.clear();
          this.entries.set(key, { client: r.client, at: Date.now(), body: r.body });
        }
        return r.body;
      },
      (err) => {
        this.loading.delete(key);
        throw err;
      },
    );
    this.loading.set(key, p);
    return p;
  }

  /** Drops everything (operator changes may touch any client). */
  clear(): void {
    this.entries.clear();
    this.loading.clear();
    for (const k of this.generation.keys()) this.generation.set(k, (this.generation.get(k) ?? 0) + 1);
  }

  invalidate(client: string): void {
    this.generation.set(client, (this.generation.get(client) ?? 0) + 1);
    for (const [k, e] of this.entries) if (e.client === client) this.entries.delete(k);
    for (const k of this.loading.keys()) if (k.includes(`|${client}|`)) this.loading.delete(k);
  }
}
