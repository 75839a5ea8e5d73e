// pagegrade as separate processes, the way an operator runs it: servers (`npm start`) and workers
// (`pagegrade worker`), each a child of the test with the settings it is given. Every child is
// SIGKILLed by stopAll(), so a failed test leaves nothing running.
//
// They run the compiled code (dist/, `npm run build`; `npm run test:system` builds first), as an
// installed pagegrade does: it starts in a fraction of the time the sources take under tsx. A missing
// build, or one older than a file of src/, is an error that says to build, never a test of stale code.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
/** Touched at the end of every build (scripts/build.mjs). */
const BUILD_STAMP = join(ROOT, 'dist/.built');

let buildChecked = false;

/**
 * Throws unless dist/ is built and newer than every file of src/. Checked once per test process (on a
 * first spawn, not at import: tests that only import a helper from here need no build).
 */
export function assertBuilt(): void {
  if (buildChecked) return;
  let built: number;
  try {
    built = statSync(BUILD_STAMP).mtimeMs;
  } catch {
    throw new Error('dist/ is not built: these tests run the compiled pagegrade. Run `npm run build` (npm run test:system does).');
  }
  const src = join(ROOT, 'src');
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.endsWith('.test.ts')) continue;
    const file = join(entry.parentPath, entry.name);
    if (statSync(file).mtimeMs > built) {
      throw new Error(`dist/ is older than ${file.slice(ROOT.length + 1)}: run \`npm run build\` (npm run test:system does).`);
    }
  }
  buildChecked = true;
}

export interface PagegradeProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves once it exited, with its code (null when a signal ended it). */
  exited: Promise<number | null>;
}

export interface ServerProcess extends PagegradeProcess {
  origin: string;
}

const children = new Set<ChildProcess>();

/** The arguments to node that start the compiled server (`npm start`); throws unless dist/ is fresh. */
export function serverCommand(): string[] {
  assertBuilt();
  return [join(ROOT, 'dist', 'server.js')];
}

/** A key in the shape pagegrade makes them, for PAGEGRADE_ADMIN_KEY. */
export function newApiKey(): string {
  return `pg_${randomBytes(32).toString('base64url')}`;
}

/** `script` is a file of dist/ (e.g. `server.js`, compiled from src/server.ts). */
function run(script: string, args: string[], env: Record<string, string>, ready: RegExp, what: string): Promise<{ process: PagegradeProcess; match: RegExpExecArray }> {
  // Settings come only from `env`: nothing of the test runner's own pagegrade settings leaks in.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('PAGEGRADE_') && !['DATABASE_URL', 'REDIS_URL', 'PORT'].includes(name)),
  );
  assertBuilt();
  const child = spawn(process.execPath, [join(ROOT, 'dist', script), ...args], {
    cwd: ROOT,
    env: { ...inherited, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  const exited = new Promise<number | null>((resolveExit) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolveExit(code);
    }),
  );
  const started = new Promise<{ process: PagegradeProcess; match: RegExpExecArray }>((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 30 s:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk;
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveStart({ process: { child, output: () => out, exited }, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${out}`));
    });
  });
  return started;
}

/** `npm start`: resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const { process: server, match } = await run('server.js', [], { LOG_LEVEL: 'info', ...env }, /Server listening at (http:\/\/127\.0\.0\.1:\d+)/, 'the server');
  return { ...server, origin: match[1] };
}

/** `pagegrade worker`: resolves once it takes jobs. */
export async function startWorkerProcess(env: Record<string, string>, concurrency: number): Promise<PagegradeProcess> {
  const { process: worker } = await run(
    'cli/main.js',
    ['worker', '--concurrency', String(concurrency)],
    env,
    /pagegrade worker: running up to/,
    'the worker',
  );
  return worker;
}

/** Kills the process at once, as a crash or `kill -9` would, and waits until it is gone. */
/** An API call to a server process with an account's key; `form` is sent url-encoded. The answer's JSON is the body. */
export async function callApi(server: ServerProcess, apiKey: string, method: string, path: string, form?: Record<string, string>) {
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json', ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: response.status, body: (await response.json()) as any };
}

export async function killProcess(target: PagegradeProcess): Promise<void> {
  target.child.kill('SIGKILL');
  await target.exited;
}

export function stopAll(): void {
  for (const child of children) child.kill('SIGKILL');
}
