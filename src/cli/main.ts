// pagegrade's command line: a table of subcommands, each a thin file in commands/ loaded only when it
// runs. Loading them all (Fastify, Kysely, the checks, ...) took most of a second, so `pagegrade --help`
// and a mistyped command load none: the table repeats each command's name and summary for the overview,
// and a command whose own disagree is an error, which every command's `--help` test would show.
import { pathToFileURL } from 'node:url';
import { parseCommandArgs, UsageError, type CliIo, type Command } from './command.ts';
import { nearestCommand } from './did-you-mean.ts';
import { pagegradeVersion } from './version.ts';
import { ConfigError } from '../config.ts';
import { ValidationError, NotFoundError } from '../services/errors.ts';

interface CommandEntry {
  name: string;
  /** Other names that run the same command, e.g. the British spelling. */
  aliases?: readonly string[];
  summary: string;
  load(): Promise<Command>;
}

export const commands: readonly CommandEntry[] = [
  {
    name: 'analyze',
    aliases: ['analyse'],
    summary: 'Analyse pages without a server and print a report (or JSON); exit codes for CI gates.',
    load: async () => (await import('./commands/analyze.ts')).analyze,
  },
  {
    name: 'crawl',
    summary: 'Audit a whole site without a server: crawl it, print its score, site issues and pages.',
    load: async () => (await import('./commands/crawl.ts')).crawl,
  },
  {
    name: 'mcp',
    summary: 'Serve MCP over stdin and stdout for agents: the analyze_url and list_checks tools, without a server.',
    load: async () => (await import('./commands/mcp.ts')).mcp,
  },
  {
    name: 'serve',
    summary: 'Run the HTTP API server (settings from the environment: PORT, HOST, DATABASE_URL, ...).',
    load: async () => (await import('./commands/serve.ts')).serve,
  },
  {
    name: 'worker',
    summary: 'Run background jobs from the queue until SIGTERM; serves no requests.',
    load: async () => (await import('./commands/worker.ts')).worker,
  },
  { name: 'migrate', summary: 'Apply pending database migrations.', load: async () => (await import('./commands/migrate.ts')).migrate },
  {
    name: 'users create',
    summary: 'Create an account and its first API key (the key is shown once).',
    load: async () => (await import('./commands/users.ts')).usersCreate,
  },
  { name: 'users list', summary: 'List accounts.', load: async () => (await import('./commands/users.ts')).usersList },
  {
    name: 'keys create',
    summary: 'Create another API key for an account (the key is shown once).',
    load: async () => (await import('./commands/keys.ts')).keysCreate,
  },
  {
    name: 'keys revoke',
    summary: 'Revoke an API key, named by its prefix (from keys list) or the whole key.',
    load: async () => (await import('./commands/keys.ts')).keysRevoke,
  },
  {
    name: 'keys list',
    summary: 'List API keys (prefixes only; secrets are never stored).',
    load: async () => (await import('./commands/keys.ts')).keysList,
  },
  {
    name: 'webhooks create',
    summary: 'Register a webhook for an account (its signing secret is shown once).',
    load: async () => (await import('./commands/webhooks.ts')).webhooksCreate,
  },
  {
    name: 'webhooks list',
    summary: "List an account's webhooks (never their secrets).",
    load: async () => (await import('./commands/webhooks.ts')).webhooksList,
  },
  {
    name: 'webhooks delete',
    summary: "Delete one of an account's webhooks, named by its id (from webhooks list), with its deliveries.",
    load: async () => (await import('./commands/webhooks.ts')).webhooksDelete,
  },
];

const namesOf = (command: CommandEntry) => [command.name, ...(command.aliases ?? [])].join(', ');

function overview(): string {
  const width = Math.max(...commands.map((command) => namesOf(command).length));
  const lines = commands.map((command) => `  ${namesOf(command).padEnd(width)}  ${command.summary}`);
  return (
    `Usage: pagegrade <command> [options]\n\nCommands:\n${lines.join('\n')}\n\n` +
    'Run "pagegrade <command> --help" for a command\'s options, "pagegrade --version" for the version.\n'
  );
}

function findCommand(argv: string[]): { entry: CommandEntry; rest: string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const entry = commands.find((candidate) => candidate.name === name || candidate.aliases?.includes(name));
    if (entry) return { entry, rest: argv.slice(words) };
  }
  return null;
}

/**
 * What to say of a command that is not in the table: the words taken for its name (one, or two after
 * a group word such as "users", never the URL or option after it), and the command it is probably
 * a typo of.
 */
function unknownCommand(argv: string[]): string {
  const suggestion = nearestCommand(argv, commands);
  const groups = new Set(commands.filter(({ name }) => name.includes(' ')).map(({ name }) => name.split(' ')[0]));
  let words = 1;
  if (suggestion) words = suggestion.split(' ').length;
  else if (groups.has(argv[0]) && argv[1] !== undefined && !argv[1].startsWith('-')) words = 2;
  const hint = suggestion ? `Did you mean "${suggestion}"?\n` : '';
  return `Unknown command "${argv.slice(0, words).join(' ')}".\n${hint}\n${overview()}`;
}

async function loadCommand(entry: CommandEntry): Promise<Command> {
  const command = await entry.load();
  if (command.name !== entry.name || command.summary !== entry.summary) {
    throw new Error(`src/cli/main.ts lists "${entry.name}" as "${entry.summary}", but the command says "${command.name}": "${command.summary}"`);
  }
  return command;
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout.write(overview());
    return argv.length === 0 ? 2 : 0;
  }
  if (argv[0] === '--version') {
    io.stdout.write(`${pagegradeVersion()}\n`);
    return 0;
  }
  const found = findCommand(argv);
  if (!found) {
    io.stderr.write(unknownCommand(argv));
    return 2;
  }
  const { entry, rest } = found;
  const command = await loadCommand(entry);
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
