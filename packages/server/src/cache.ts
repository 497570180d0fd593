// A short-lived cache of project-list answers (microcaching): the hottest read skips the database for a moment.
// Writes in this process drop the client's entries at once; other API processes see a change within the TTL.

interface Entry {
  client: string;
  at: number;
  body: string;
}

export class ListCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number) {}

  get(key: string): string | null {
    if (this.ttlMs <= 0) return null;
    const e = this.entries.get(key);
    if (!e) return null;
    if (Date.now() - e.at > this.ttlMs) {
      this.entries.delete(key);
      return null;
    }
    return e.body;
  }

  set(key: string, client: string, body: string): void {
    if (this.ttlMs <= 0) return;
    // Bounded: a burst of distinct keys cannot grow memory without limit.
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(key, { client, at: Date.now(), body });
  }

  invalidate(client: string): void {
    for (const [k, e] of this.entries) if (e.client === client) this.entries.delete(k);
  }
}
