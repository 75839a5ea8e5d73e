// bench/experiments/list-shapes.ts (every list shape's latency, beyond the read benchmark's five
// queries) runs end to end, so it never rots. This checks that it measures every shape, never how fast.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** 8 filter combinations x 4 sorts x 2 directions, 2 deeper pages, 8 projects lists */
const SHAPES = 74;

it('measures every report and project list shape once, on SQLite', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/experiments/list-shapes.ts', '--quick'], {
    cwd: REPO_ROOT,
    maxBuffer: 4 * 1024 * 1024,
    timeout: 110_000,
  });
  expect(stdout).toContain(`List shapes, sqlite, 2000 reports, 10 connections: ${SHAPES} shapes`);
  const rows = stdout.split('\n').filter((line) => line.startsWith('| reports,') || line.startsWith('| projects,'));
  expect(rows).toHaveLength(SHAPES);
  expect(new Set(rows.map((row) => row.split('|')[1])).size).toBe(SHAPES);
  for (const row of rows) {
    const [rps, p50, p99] = row.split('|').slice(2, 5).map((cell) => Number(cell.trim()));
    for (const value of [rps, p50, p99]) expect(Number.isFinite(value) && value > 0, row).toBe(true);
    expect(p50, row).toBeLessThanOrEqual(p99);
  }
}, 120_000);
