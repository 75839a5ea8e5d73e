// The real binary, on purpose: bin/pagegrade.js started as users and CI start it (Node, the compiled code,
// the process's own stdout, stderr and exit code). Every command's behaviour is tested in-process
// through runCli (test/cli/); these few check that the binary wires it up the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/main.ts';
import { goodPage, html, startSite, type Site } from '../support/site-server.ts';
import { badPage } from '../cli/pages.ts';
import { LOOPBACK, runBinary } from '../cli/run-binary.ts';

const ESC = '\u001b';

let site: Site;
beforeAll(async () => {
  site = await startSite({ '/good': html(goodPage()), '/bad': badPage });
});
afterAll(() => site.close());

describe.concurrent('the real binary: help and usage', () => {
  it('pagegrade --help lists every command and exits 0', async () => {
    const run = await runBinary(['--help']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    for (const command of commands) expect(run.stdout).toContain(`  ${command.name}`);
  });

  it('pagegrade analyze --help prints its usage and exits 0', async () => {
    const run = await runBinary(['analyze', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: pagegrade analyze <url\.\.\.>/);
  });

  it('an unknown command exits 2 and lists the commands on stderr', async () => {
    const run = await runBinary(['users', 'delete']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown command "users delete"');
    expect(run.stderr).toContain('  analyze');
  });
});

describe.concurrent('the real binary: analyze and its exit code', () => {
  it('a good page: the text report on stdout, plain on a pipe, exit 0', async () => {
    const run = await runBinary(['analyze', site.url('/good'), '--fail-on', 'bad'], LOOPBACK);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout.split('\n')[1]).toMatch(/^Score \d{1,3}\/100 good$/);
    expect(run.stdout).not.toContain(ESC);
  });

  it('a page graded bad with --fail-on bad: the JSON report, the reason on stderr, exit 1', async () => {
    const run = await runBinary(['analyze', site.url('/bad'), '--fail-on', 'bad', '--json'], LOOPBACK);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ url: site.url('/bad'), result: 'bad' });
    expect(run.stderr).toContain('pagegrade: gate failed: --fail-on bad: 1 of 1 pages graded bad.');
  });

  it('a usage error exits 2 with the usage, nothing on stdout', async () => {
    const run = await runBinary(['analyze', '--min-score', '101', site.url('/good')], LOOPBACK);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--min-score must be a whole number from 0 to 100');
    expect(run.stderr).toContain('Usage: pagegrade analyze');
    expect(run.stdout).toBe('');
  });
});
