// The package as users get it: `npm pack`'s tarball of the build (dist/, `npm run build`), installed
// in an empty folder from npm's cache (--prefer-offline: the registry only for what the cache lacks),
// then `npx pagegrade` run there, with no TypeScript, no tsx and no sources anywhere near it.
//
// better-sqlite3's install script is denied in that folder and the addon this checkout already
// compiled is copied in instead when the versions agree: building it from source takes minutes on a
// small machine and tests better-sqlite3, not this package. A different version is built as npm would.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { assertBuilt, newApiKey } from '../support/processes.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ADDON = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a user's shell: nothing of the npm script that may have started vitest
 * (npm_config_*, npm_package_*), no pagegrade settings, no database.
 */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(
    ([name]) => !/^npm_/i.test(name) && !name.startsWith('PAGEGRADE_') && !['DATABASE_URL', 'REDIS_URL', 'PORT', 'FORCE_COLOR', 'NO_COLOR'].includes(name),
  );
  return { ...Object.fromEntries(kept), ...extra };
}

/** Runs `command` (npm, npx, ...) to the end, at most `timeoutMs`. */
function run(command: string, args: string[], cwd: string, timeoutMs: number, env = userEnv()): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    execFile(command, args, { cwd, env, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') {
        return reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stdout}\n${stderr}`));
      }
      resolveRun({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

async function version(directory: string, name: string): Promise<string> {
  return (JSON.parse(await readFile(join(directory, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

let site: Site;
let folder: string;
let packed: string[];
let server: ChildProcess | undefined;

beforeAll(async () => {
  assertBuilt();
  site = await startSite({ '/good': html(goodPage()) });
  folder = await mkdtemp(join(tmpdir(), 'pagegrade-package-'));

  // --ignore-scripts: the build is there already; `prepare` would rebuild it under other tests' feet.
  const pack = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], ROOT, 60_000);
  expect(pack.code, pack.stderr).toBe(0);
  const [tarball] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = tarball.files.map((file) => file.path);

  const app = join(folder, 'app');
  await mkdir(app);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'pagegrade-package-test', private: true, allowScripts: { 'better-sqlite3': false, 'msgpackr-extract': false } }),
  );
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, tarball.filename)], app, 240_000);
  expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);

  if ((await version(app, 'better-sqlite3')) === (await version(ROOT, 'better-sqlite3'))) {
    await mkdir(join(app, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
    await copyFile(join(ROOT, ADDON), join(app, ADDON));
  } else {
    const build = await run('npm', ['run', 'install'], join(app, 'node_modules/better-sqlite3'), 480_000);
    expect(build.code, `${build.stdout}\n${build.stderr}`).toBe(0);
  }
}, 600_000);

afterAll(async () => {
  server?.kill('SIGKILL');
  await site?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

const app = () => join(folder, 'app');
/** `npx pagegrade ...` exactly as typed (a flag before `pagegrade` would make npx read `--help` as its own); never an install. */
const npxEnv = (extra: Record<string, string> = {}) => userEnv({ npm_config_yes: 'false', ...extra });

describe('the npm package', () => {
  it('holds the compiled code, its run-time files and no sources', () => {
    expect(packed).toEqual(expect.arrayContaining([
      'bin/pagegrade.js',
      'dist/server.js',
      'dist/cli/main.js',
      'dist/analysis/analysis-worker.js',
      'dist/fetch/zstd-worker.mjs',
      'dist/web/assets/app.css',
      'README.md',
      'LICENSE',
    ]));
    expect(packed.filter((path) => path.endsWith('.ts') || /^(src|test|bench|scripts)\//.test(path) || path.includes('.tsbuildinfo'))).toEqual([]);
    // The tsx worker shim is for the sources only; compiled, the worker is plain JavaScript.
    expect(packed).not.toContain('dist/analysis/analysis-worker.mjs');
  });

  it('installs without a TypeScript loader', () => {
    expect(existsSync(join(app(), 'node_modules/pagegrade/dist/cli/main.js'))).toBe(true);
    for (const name of ['tsx', 'typescript', 'esbuild']) expect(existsSync(join(app(), 'node_modules', name)), name).toBe(false);
  });

  it('npx pagegrade --help lists the commands and exits 0', async () => {
    const help = await run('npx', ['pagegrade', '--help'], app(), 60_000, npxEnv());
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pagegrade <command>/);
    expect(help.stdout).toMatch(/^  analyze, analyse /m);
    expect(help.stdout).toContain('  worker ');
  });

  it('npx pagegrade analyze <url> grades a page on 127.0.0.1, and writes an HTML report with its styles', async () => {
    const analysis = await run(
      'npx',
      ['pagegrade', 'analyze', site.url('/good'), '--output', 'report.html'],
      app(),
      120_000,
      npxEnv({ PAGEGRADE_ALLOW_PRIVATE_URLS: '1' }),
    );
    expect(analysis.code, analysis.stderr).toBe(0);
    expect(analysis.stdout.split('\n')[0]).toBe(site.url('/good'));
    expect(analysis.stdout.split('\n')[1]).toMatch(/^Score \d{1,3}\/100 good$/);
    const report = await readFile(join(app(), 'report.html'), 'utf8');
    expect(report).toContain('<style');
    expect(report).toContain('Mountain coffee');
  });

  it('pagegrade serve starts on SQLite, answers /health and serves its assets', async () => {
    // The installed bin itself, not through npx: a signal to npx would not reach the server.
    server = spawn(join(app(), 'node_modules/.bin/pagegrade'), ['serve'], {
      cwd: app(),
      env: userEnv({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', PAGEGRADE_WORKERS: '0', PAGEGRADE_ADMIN_KEY: newApiKey(), DATABASE_URL: `sqlite:${join(app(), 'pagegrade.db')}` }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const origin = await new Promise<string>((resolveOrigin, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start within 60 s:\n${output}`)), 60_000);
      const onData = (chunk: Buffer) => {
        output += chunk;
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolveOrigin(match[1]);
        }
      };
      server!.stdout!.on('data', onData);
      server!.stderr!.on('data', onData);
      server!.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
    });

    const health = await fetch(`${origin}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const login = await (await fetch(`${origin}/dashboard/login`)).text();
    const stylesheet = /href="(\/assets\/app\.css\?v=[0-9a-f]+)"/.exec(login)?.[1];
    expect(stylesheet, login).toBeDefined();
    const css = await fetch(`${origin}${stylesheet}`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  }, 90_000);
});
