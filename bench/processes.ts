// Child processes of the benchmarks: servers under load (so their memory is their own and the load
// comes from another process), workers beside them, and floors that run to completion and print
// their result.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { MB, round } from './stats.ts';

export const REPO_ROOT = resolve(import.meta.dirname, '..');

const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 15_000;

export interface ProcessOptions {
  /** write a V8 CPU profile of the child here (node --cpu-prof) */
  cpuProfDir?: string;
}

export interface ChildService {
  pid: number;
  /** SIGTERM, then SIGKILL if it has not exited after a grace period. */
  stop(): Promise<void>;
}

export interface ServiceProcess extends ChildService {
  origin: string;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** Resident memory of a process now, from /proc (Linux). */
export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return round((Number(match[1]) * 1024) / MB, 1);
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat's CPU times: 100 on every mainstream kernel build. */
const CLOCK_TICKS_PER_S = 100;

/** CPU seconds (user + system, all its threads) a live process has used so far, from /proc (Linux). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces: state is the first, utime the 12th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

/**
 * CPU seconds one thread of a live process has used so far (its main thread by default: its id is the
 * process's), from /proc (Linux). A server's event loop, and every SQLite statement, runs on it.
 */
export function threadCpuSeconds(pid: number, tid = pid): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
}

/**
 * Samples a process's RSS until stopped; returns the highest sample. Sampling ends quietly if the
 * process does: whatever ended it is the error to report, not this timer's.
 */
export function sampleRss(pid: number, intervalMs = 200): { stop(): number } {
  let peak = rssMb(pid);
  const sample = () => {
    try {
      peak = Math.max(peak, rssMb(pid));
    } catch {
      clearInterval(timer);
    }
  };
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Children still running; a benchmark that fails half-way must not leave a server behind. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts a script with Node: TypeScript through tsx, JavaScript (the build, .mjs) as it is, without tsx's start-up. */
function spawnScript(script: string, args: string[], env: NodeJS.ProcessEnv, options: ProcessOptions, ipc = false): ChildProcess {
  const profile = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : [];
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...profile, ...loader, resolve(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * Headers for this process's own requests to a server under test (readiness, polls): each closes its
 * connection once answered. A kept-alive connection left idle holds the server's graceful shutdown
 * for its grace for idle connections (a second) every time one is stopped.
 */
export const CLOSE_CONNECTION = { connection: 'close' } as const;

/** Starts a long-running server script and resolves once GET <origin><readyPath> answers 200. */
export async function startService(
  script: string,
  port: number,
  env: NodeJS.ProcessEnv,
  readyPath: string,
  options: ProcessOptions = {},
): Promise<ServiceProcess> {
  const child = spawnScript(script, [], env, options);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit');
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode} before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} was not ready within ${READY_TIMEOUT_MS} ms:\n${output}`);
    }
    const ready = await fetch(`${origin}${readyPath}`, { headers: CLOSE_CONNECTION }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  return { origin, ...stoppable(child, exited) };
}

/** Starts a long-running script that serves no HTTP (a worker) and resolves once its output matches `ready`. */
export async function startBackground(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  options: ProcessOptions = {},
): Promise<ChildService> {
  const child = spawnScript(script, args, env, options);
  const exited = once(child, 'exit');
  let output = '';
  await new Promise<void>((resolveReady, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} was not ready within ${READY_TIMEOUT_MS} ms:\n${output}`));
    }, READY_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (!ready.test(output)) return;
      clearTimeout(timer);
      resolveReady();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code} before it was ready:\n${output}`));
    });
  });
  return stoppable(child, exited);
}

function stoppable(child: ChildProcess, exited: Promise<unknown>): ChildService {
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Runs a script given one JSON argument to completion and parses the JSON it prints last. */
export async function runToCompletion<T>(script: string, input: unknown, options: ProcessOptions = {}): Promise<T> {
  const child = spawnScript(script, [JSON.stringify(input)], {}, options);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${script} exited with ${code}:\n${stderr}`);
  const lastLine = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(lastLine) as T;
}

/** A child that runs one round of work per message sent to it and answers each with its result. */
export interface RoundsProcess<Request, Result> {
  round(request: Request): Promise<Result>;
  /** Disconnects it, which ends it, and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts a script given one JSON argument that, until disconnected, answers every message it gets
 * (process.on('message')) with one result (process.send): a floor kept warm between rounds.
 */
export function startRounds<Request, Result>(script: string, input: unknown, options: ProcessOptions = {}): RoundsProcess<Request, Result> {
  const child = spawnScript(script, [JSON.stringify(input)], {}, options, true);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdout!.resume();
  const exited = once(child, 'exit') as Promise<[number | null]>;
  return {
    round(request) {
      return new Promise<Result>((resolveRound, reject) => {
        child.once('message', (result) => resolveRound(result as Result));
        // `exited` settles even when the child died before this round began, so no round waits forever.
        void exited.then(([code]) => reject(new Error(`${script} exited with ${code} before answering a round:\n${stderr}`)), reject);
        child.send(request as object, (error) => {
          if (error) reject(error);
        });
      });
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.disconnect();
      const [code] = await exited;
      if (code !== 0) throw new Error(`${script} exited with ${code}:\n${stderr}`);
    },
  };
}
