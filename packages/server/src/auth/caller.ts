// Who makes a call, as the routes and the audit log see it: a signed-in user, or a client API key acting for its own
// client.
export type Caller =
  | { kind: 'user'; stamp: string; email: string; username: string; /** The session the call's token names. */ session?: string }
  | { kind: 'key'; clue: string; client: string };
