// Runs the command line in this process, through runCli, with what it writes captured: the fast way
// to test a command. Same result as runBinary (run-binary.ts), which starts the real binary; keep that
// for what needs a process of its own (signals, a terminal, an exit on an uncaught error).
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { runCli } from '../../src/cli/main.ts';
import type { BinaryRun } from './run-binary.ts';

/** A stream that keeps what is written to it, as a pipe would pass it on: no terminal (isTTY unset). */
class Captured extends Writable {
  private readonly chunks: Buffer[] = [];

  constructor() {
    super({ decodeStrings: true });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    done();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * `pagegrade <args>` in-process. The command sees this process's environment without anything that
 * would change its behaviour (colour switches, pagegrade settings, DATABASE_URL), plus `env`, as the
 * binary's child does; relative paths resolve against this process's directory (the repository's,
 * where vitest runs). Every command closes what it opens (database, queue, browsers) before runCli
 * returns; the analysis threads and the fetcher's connections are the process's, idle ones unref'd.
 * An error the binary would exit 1 on (thrown out of runCli) is exit code 1 with it on stderr.
 */
export async function runInProcess(args: string[], env: Record<string, string> = {}): Promise<BinaryRun> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !['FORCE_COLOR', 'NO_COLOR', 'DATABASE_URL'].includes(name) && !name.startsWith('PAGEGRADE_'),
    ),
  );
  const stdout = new Captured();
  const stderr = new Captured();
  let code: number;
  try {
    code = await runCli(args, { stdout, stderr, env: { ...inherited, ...env } });
  } catch (error) {
    stderr.write(`pagegrade: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    code = 1;
  }
  // Ended, so a write after the command returned (something it left running) is an error, not lost.
  stdout.end();
  stderr.end();
  await Promise.all([finished(stdout), finished(stderr)]);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
