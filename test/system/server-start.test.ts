// The server as `npm start` runs it: a real process, first-start bootstrap, the admin key setting,
// and a clean exit on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverCommand } from '../support/processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');

interface Running {
  child: ChildProcess;
  origin: string;
  stdout: () => string;
}

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratchDatabaseUrl(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-start-'));
  dirs.push(dir);
  return `sqlite:${join(dir, 'pagegrade.db')}`;
}

async function startServer(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, serverCommand(), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk) => (out += chunk));
  child.stderr!.on('data', (chunk) => (out += chunk));
  const origin = await new Promise<string>((resolveOrigin, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 20_000);
    child.stdout!.on('data', () => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveOrigin(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  return { child, origin, stdout: () => out };
}

async function accountStatus(origin: string, key: string): Promise<number> {
  const response = await fetch(`${origin}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
  return response.status;
}

function exitCode(child: ChildProcess): Promise<number | null> {
  return new Promise((resolveCode) => child.on('exit', (code) => resolveCode(code)));
}

describe('npm start', () => {
  it('creates one admin on the first start, prints its key once, and stops cleanly on SIGTERM', async () => {
    const databaseUrl = scratchDatabaseUrl();
    const first = await startServer({ DATABASE_URL: databaseUrl });
    const key = /\n {4}(pg_[A-Za-z0-9_-]+)\n/.exec(first.stdout())?.[1];
    expect(key).toBeDefined();
    expect(await accountStatus(first.origin, key!)).toBe(200);
    expect(await accountStatus(first.origin, `${key!}x`)).toBe(401);
    // The key is printed on the terminal only, never inside a JSON log line.
    const logLines = first.stdout().split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.some((line) => line.includes(key!))).toBe(false);
    const exited = exitCode(first.child);
    first.child.kill('SIGTERM');
    expect(await exited).toBe(0);

    const second = await startServer({ DATABASE_URL: databaseUrl });
    expect(second.stdout()).not.toContain('pg_');
    expect(await accountStatus(second.origin, key!)).toBe(200);
  });

  it('makes sure an admin holds exactly PAGEGRADE_ADMIN_KEY, and prints no key', async () => {
    const adminKey = 'pg_operator-chosen-admin-key-0123456789';
    const running = await startServer({ DATABASE_URL: scratchDatabaseUrl(), PAGEGRADE_ADMIN_KEY: adminKey });
    expect(running.stdout()).not.toContain('shown only this once');
    expect(await accountStatus(running.origin, adminKey)).toBe(200);
    const account = await fetch(`${running.origin}/api/v1/account`, { headers: { authorization: `Bearer ${adminKey}` } });
    expect(((await account.json()) as { data: { email: string } }).data.email).toBe('admin@localhost');
  });

  it('refuses to start with an invalid setting and says which', async () => {
    const child = spawn(process.execPath, serverCommand(), {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', PAGEGRADE_RATE_LIMIT: 'lots', DATABASE_URL: scratchDatabaseUrl() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let err = '';
    child.stderr!.on('data', (chunk) => (err += chunk));
    expect(await exitCode(child)).toBe(1);
    expect(err).toContain('PAGEGRADE_RATE_LIMIT must be an integer');
  });
});
