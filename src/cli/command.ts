// What a CLI subcommand is: a name, help text, and a run over parsed arguments.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export interface Command {
  /** e.g. "users create" */
  name: string;
  summary: string;
  usage: string;
  /** More help after the summary: options explained, exit codes. */
  details?: string;
  options: NonNullable<ParseArgsConfig['options']>;
  allowPositionals?: boolean;
  /** Returns the process exit code. */
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}

/** An option as given, in order: what `values` loses when the order matters (`--format` before `--output`). */
interface OptionToken {
  name: string;
  value: string | undefined;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
  /** every option in the order given */
  options?: OptionToken[];
}

/** A usage problem: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

export function parseCommandArgs(command: Command, argv: string[]): ParsedArgs {
  try {
    const { values, positionals, tokens } = parseArgs({
      args: argv,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
      tokens: true,
    });
    const options = tokens.flatMap((token) => (token.kind === 'option' ? [{ name: token.name, value: token.value }] : []));
    return { values, positionals, options };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function requireString(args: ParsedArgs, name: string): string {
  const value = args.values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required.`);
  return value;
}
