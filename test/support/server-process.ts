// The server as operators run it (`npm start`: node dist/server.js), as a child process the hardening
// tests and the load script can signal, kill and restart. Ready means /health answers 200.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { serverCommand } from './processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** A start takes under a second; a loaded machine can make it many. */
const START_TIMEOUT_MS = 30_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  origin: string;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Settles when the process has exited. */
  exited: Promise<Exit>;
}

const running = new Set<ChildProcess>();

/** A port nothing listens on right now (taken, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** Starts the server with `env` over the inherited environment; resolves once /health is 200. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, serverCommand(), {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk));
  const exited = new Promise<Exit>((settle) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      settle({ code, signal });
    }),
  );
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  let gone: Exit | null = null;
  void exited.then((exit) => (gone = exit));
  for (;;) {
    if (gone) throw new Error(`the server exited (${JSON.stringify(gone)}) before it was ready:\n${out}\n${err}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server was not ready within ${START_TIMEOUT_MS} ms:\n${out}\n${err}`);
    }
    const status = await fetch(`${origin}/health`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  return { child, pid: child.pid!, origin, stdout: () => out, stderr: () => err, exited };
}

/** SIGKILLs every server this module started that is still running (for afterAll). */
export function killServerProcesses(): void {
  for (const child of running) child.kill('SIGKILL');
}
