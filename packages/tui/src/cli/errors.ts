// Exit codes of the CLI (gh style) and the one error type commands throw for a clean one-line failure.

/** 130 is the shell's code for a program ended by Ctrl+C (128 + SIGINT). */
export const EXIT = { ok: 0, failure: 1, usage: 2, auth: 4, interrupted: 130 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failure,
  ) {
    super(message);
  }
}

/** A usage error: a flag is missing or malformed. */
export const usageError = (message: string) => new CliError(message, EXIT.usage);
