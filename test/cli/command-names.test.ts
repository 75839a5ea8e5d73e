// The command table: `analyse` is `analyze`, an unknown command exits 2 (with the command it is
// probably a typo of), and --version prints package.json's version.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editDistance, nearestCommand } from '../../src/cli/did-you-mean.ts';
import { commands } from '../../src/cli/main.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { LOOPBACK } from './run-binary.ts';
import { runInProcess } from './run-cli.ts';

/** What differs between two runs of the same page: when it ran and how long it took. */
const withoutTimes = (json: string) => json.replace(/"(generated_at|\w+_ms)": ("[^"]*"|\d+)/g, '"$1": 0');
/** Limits no loopback fetch reaches, however loaded the machine: both runs pass the timing checks. */
const PATIENT = { ...LOOPBACK, PAGEGRADE_THRESHOLDS: JSON.stringify({ max_load_time_ms: 600_000, max_ttfb_ms: 600_000 }) };

let site: Site;

beforeAll(async () => {
  site = await startSite({ '/': html(goodPage()) });
});

afterAll(() => site.close());

describe('analyse is analyze', () => {
  it('analyse <url> --json: exit 0 and the report analyze prints', async () => {
    const [british, american] = await Promise.all(['analyse', 'analyze'].map((name) => runInProcess([name, site.url('/'), '--json'], PATIENT)));
    expect(british.code, british.stderr).toBe(0);
    expect(JSON.parse(british.stdout)).toMatchObject({ url: site.url('/'), result: expect.any(String) });
    expect(withoutTimes(british.stdout)).toBe(withoutTimes(american.stdout));
    expect(british.stderr).toBe(american.stderr);
  });

  it('takes the same options and exits with the same codes', async () => {
    const [gate, usage] = await Promise.all([
      runInProcess(['analyse', site.url('/'), '--min-score', '100'], LOOPBACK),
      runInProcess(['analyse', '--min-score', '101', site.url('/')]),
    ]);
    expect(gate.code).toBe(1);
    expect(gate.stderr).toContain('--min-score 100: 1 of 1 pages scored below 100.');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--min-score must be a whole number from 0 to 100');
    expect((await runInProcess(['analyse', '--help'])).stdout).toBe((await runInProcess(['analyze', '--help'])).stdout);
  });

  it('--help lists the alias beside the command', async () => {
    const run = await runInProcess(['--help']);
    expect(run.stdout).toMatch(/^ {2}analyze, analyse +Analyse pages/m);
  });
});

describe.concurrent('unknown commands exit 2', () => {
  it.each([
    [['analyz', 'https://example.com/'], 'analyz', 'analyze'],
    [['anlayze', 'https://example.com/', '--json'], 'anlayze', 'analyze'],
    [['analyse-x', 'https://example.com/'], 'analyse-x', 'analyze'],
    [['users', 'creat', '--email', 'ana@example.com'], 'users creat', 'users create'],
    [['user', 'list'], 'user list', 'users list'],
    [['webhook', 'delete', '3'], 'webhook delete', 'webhooks delete'],
  ])('%j: the command as typed, and "Did you mean"', async (args, typed, meant) => {
    const run = await runInProcess(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Unknown command "${typed}".\nDid you mean "${meant}"?\n`);
    expect(run.stdout).toBe('');
  });

  it.each([
    [['https://example.com/'], 'https://example.com/'],
    [['frobnicate', 'https://example.com/'], 'frobnicate'],
    [['users', 'delete', '--email', 'ana@example.com'], 'users delete'],
    [['users', '--json'], 'users'],
  ])('%j: no command is near, so no guess', async (args, typed) => {
    const run = await runInProcess(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Unknown command "${typed}".\n\nUsage: pagegrade <command>`);
    expect(run.stderr).not.toContain('Did you mean');
  });
});

describe('did-you-mean', () => {
  it('counts single-character edits', () => {
    expect(editDistance('analyze', 'analyze')).toBe(0);
    expect(editDistance('analyz', 'analyze')).toBe(1);
    expect(editDistance('anlayze', 'analyze')).toBe(2);
    expect(editDistance('serve', 'crawl')).toBe(5);
    expect(editDistance('', 'keys')).toBe(4);
  });

  it('guesses only within two edits, and not between two equally near names', () => {
    expect(nearestCommand(['migrat'], commands)).toBe('migrate');
    expect(nearestCommand(['migrxyz'], commands)).toBeUndefined();
    expect(nearestCommand(['keys', 'lis'], commands)).toBe('keys list');
    expect(nearestCommand(['ab'], [{ name: 'abc' }, { name: 'abd' }])).toBeUndefined();
    expect(nearestCommand(['ab'], [{ name: 'abc' }, { name: 'abde' }])).toBe('abc');
  });

  it('an alias is as near as its command, and names it', () => {
    expect(nearestCommand(['analyse-x'], commands)).toBe('analyze');
    // Near both spellings of one command: no tie.
    expect(nearestCommand(['analyxe'], commands)).toBe('analyze');
  });
});

describe('--version', () => {
  it("prints package.json's version and exits 0", async () => {
    const { version } = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    const run = await runInProcess(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});
