// Prompts on a TTY (questions on stderr so stdout stays clean); secrets are not echoed.
import type { Readable, Writable } from 'node:stream';

export interface Prompter {
  ask(question: string, opts?: { secret?: boolean }): Promise<string>;
}

export function ttyPrompter(input: Readable, output: Writable): Prompter {
  return {
    ask(question, opts = {}) {
      return import('node:readline').then(
        ({ createInterface }) =>
          new Promise((resolve, reject) => {
            const rl = createInterface({ input, output, terminal: true });
            if (opts.secret) {
              // readline echoes through _writeToOutput; print the question once and swallow the typed characters.
              const r = rl as unknown as { _writeToOutput(s: string): void };
              r._writeToOutput = (s: string) => {
                if (s.includes(question)) output.write(question);
                else if (s === '\r\n' || s === '\n') output.write(s);
              };
            }
            rl.on('SIGINT', () => {
              rl.close();
              output.write('\n');
              // Ctrl+C at a prompt ends the command as Ctrl+C ends any program (exit 130).
              reject(Object.assign(new Error('cancelled'), { cancelled: true, interrupted: true }));
            });
            rl.question(question, (answer) => {
              rl.close();
              if (opts.secret) output.write('\n');
              resolve(answer);
            });
          }),
      );
    },
  };
}

/** Reads all of stdin (for --password-stdin and --token-stdin), without the trailing newline. */
export async function readAll(input: AsyncIterable<Buffer | string>): Promise<string> {
  let text = '';
  for await (const chunk of input) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text.replace(/\r?\n$/, '');
}
