// What the invites verbs share.

/** The token alone, or the whole link from the mail (`.../invite?token=...`). */
export function tokenOf(value: string): string {
  try {
    return new URL(value).searchParams.get('token') ?? value;
  } catch {
    return value;
  }
}
