// `npm start`'s log lines: readable on a terminal (pino-pretty), JSON when stdout is a pipe or a file.
// The terminal is a real pseudo-terminal made by util-linux's `script`, as a person's shell would give.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverCommand } from '../support/processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function environment(): NodeJS.ProcessEnv {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-log-'));
  dirs.push(dir);
  const { FORCE_COLOR: _force, NO_COLOR: _no, ...inherited } = process.env;
  return { ...inherited, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${join(dir, 'pagegrade.db')}` };
}

/** What the process wrote until it said it listens (stdout and stderr together). */
function outputUntilListening(child: ChildProcess): Promise<string> {
  children.push(child);
  let out = '';
  return new Promise((resolveOutput, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const take = (chunk: Buffer) => {
      out += chunk;
      if (/Server listening at http:\/\/127\.0\.0\.1:\d+/.test(out)) {
        clearTimeout(timer);
        resolveOutput(out);
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

const SERVER = [process.execPath, ...serverCommand()];

describe('npm start logs', () => {
  it('writes one JSON object a line when stdout is not a terminal', async () => {
    const child = spawn(SERVER[0], SERVER.slice(1), { cwd: ROOT, env: environment(), stdio: ['ignore', 'pipe', 'pipe'] });
    const out = await outputUntilListening(child);
    const line = out.split('\n').find((entry) => entry.includes('Server listening at'));
    expect(JSON.parse(line!)).toMatchObject({ level: 30, msg: expect.stringMatching(/^Server listening at /) });
  });

  it('writes readable lines through pino-pretty on a terminal', async () => {
    // script -q: no banner; -e: its exit status is the server's; -c: the command, run on a new pseudo-terminal.
    const child = spawn('script', ['-qec', SERVER.join(' '), '/dev/null'], { cwd: ROOT, env: environment(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out = await outputUntilListening(child);
    const line = out.split('\n').find((entry) => entry.includes('Server listening at'))!;
    expect(line).not.toMatch(/^\s*\{/);
    // "[15:04:05.123] INFO: Server listening at ...", coloured
    expect(line).toMatch(/\[\d\d:\d\d:\d\d\.\d{3}\] .*INFO.*: .*Server listening at http:\/\/127\.0\.0\.1:\d+/);
    expect(line).toContain('\u001b[');
  });
});
