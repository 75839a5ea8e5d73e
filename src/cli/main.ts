// pagegrade's command line: a table of subcommands, each a thin file in commands/.
import { pathToFileURL } from 'node:url';
import { parseCommandArgs, UsageError, type CliIo, type Command } from './command.ts';
import { ConfigError } from '../config.ts';
import { ValidationError, NotFoundError } from '../services/errors.ts';
import { serve } from './commands/serve.ts';
import { migrate } from './commands/migrate.ts';
import { usersCreate, usersList } from './commands/users.ts';
import { keysCreate, keysList, keysRevoke } from './commands/keys.ts';
import { analyze } from './commands/analyze.ts';
import { worker } from './commands/worker.ts';
import { crawl } from './commands/crawl.ts';
import { webhooksCreate, webhooksDelete, webhooksList } from './commands/webhooks.ts';

export const commands: readonly Command[] = [analyze, crawl, serve, worker, migrate, usersCreate, usersList, keysCreate, keysRevoke, keysList,
  webhooksCreate, webhooksList, webhooksDelete];

function overview(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: pagegrade <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun "pagegrade <command> --help" for a command's options.\n`;
}

function findCommand(argv: string[]): { command: Command; rest: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = commands.find((candidate) => candidate.name === name);
    if (command) return { command, rest: argv.slice(words) };
  }
  return null;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout.write(overview());
    return argv.length === 0 ? 2 : 0;
  }
  const found = findCommand(argv);
  if (!found) {
    io.stderr.write(`Unknown command "${argv.slice(0, 2).join(' ')}".\n\n${overview()}`);
    return 2;
  }
  const { command, rest } = found;
  try {
    const args = parseCommandArgs(command, rest);
    if (args.values.help) {
      const details = command.details ? `\n${command.details}\n` : '';
      io.stdout.write(`Usage: pagegrade ${command.usage}\n\n${command.summary}\n${details}`);
      return 0;
    }
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.message}\nUsage: pagegrade ${command.usage}\n`);
      return 2;
    }
    if (error instanceof ValidationError || error instanceof ConfigError || error instanceof NotFoundError) {
      io.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`pagegrade: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
