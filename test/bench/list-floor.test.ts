// bench/experiments/list-floor.ts (docs/performance.md's evidence for where a list request's time
// goes) runs end to end, so it never rots. This checks that it measures all three servers, never how
// fast they are.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const REPO_ROOT = resolve(import.meta.dirname, '../..');

it('measures the static floor, the statements alone and pagegrade, and their ratios', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'bench/experiments/list-floor.ts', '--quick'],
    { cwd: REPO_ROOT, maxBuffer: 4 * 1024 * 1024, timeout: 170_000 },
  );
  expect(stdout).toContain('Default report list, SQLite, 20000 reports');
  const row = stdout.split('\n').find((line) => line.startsWith('| 1 |'));
  expect(row, stdout).toBeDefined();
  const cells = row!.split('|').slice(2, -1).map((cell) => Number(cell.trim()));
  expect(cells).toHaveLength(6);
  for (const value of cells) expect(Number.isFinite(value) && value > 0, row).toBe(true);
}, 180_000);
