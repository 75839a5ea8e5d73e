// The load script (npm run load) runs end to end: a short run exits 0 and prints its table. Its
// numbers are for people to read; nothing here judges speed.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

describe('scripts/load-test.ts', () => {
  it('runs a 5-second mixed load with no 5xx and prints the table', { timeout: 90_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/load-test.ts', '--seconds', '5', '--connections', '4'], {
      cwd: ROOT,
      // A PostgreSQL URL meant for the tests must not receive the load script's tables.
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    const code = await new Promise<number | null>((done) => child.on('exit', (exitCode) => done(exitCode)));
    expect(code, out).toBe(0);
    for (const row of ['requests', 'rate', 'latency p50 / p99 / max', 'status 200', 'status 201', '5xx', 'RSS median, last quarter']) {
      expect(out).toMatch(new RegExp(`^\\| ${row.replace(/[/]/g, '\\/')} +\\| .+ \\|$`, 'm'));
    }
    expect(out).toMatch(/^\| 5xx +\| 0 \|$/m);
    expect(out).toMatch(/^\| verdict +\| PASS \|$/m);
  });
});
