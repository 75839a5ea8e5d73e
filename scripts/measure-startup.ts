// How fast the command line starts (`npm run measure:startup`, which builds first): `pagegrade --help`
// run as users run it (node bin/pagegrade.js, the compiled code), the median of five runs against the
// target of 0.5 s, beside `pagegrade analyze --help` (which loads the analyze command and everything it
// runs on) and plain `node -e 0` (Node's own start, the floor). Not a test: on a loaded machine the
// figures grow with the load, so it prints them and never fails on them.
//
//   npm run measure:startup [-- --runs 9]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');
const BINARY = resolve(ROOT, 'bin/pagegrade.js');
const TARGET_S = 0.5;

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number, 1 or more');
if (!existsSync(resolve(ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');

function seconds(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const elapsed = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${run.status}: ${run.stderr.toString()}`);
  return elapsed;
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const format = (value: number) => `${value.toFixed(3)} s`;
const cases: Array<{ name: string; args: string[]; target?: number }> = [
  { name: 'pagegrade --help', args: [BINARY, '--help'], target: TARGET_S },
  { name: 'pagegrade analyze --help', args: [BINARY, 'analyze', '--help'] },
  { name: 'node -e 0', args: ['-e', '0'] },
];

for (const { args } of cases) seconds(args); // one run each first, so the files are in the page cache
for (const { name, args, target } of cases) {
  const times = Array.from({ length: runs }, () => seconds(args));
  const middle = median(times);
  const verdict = target === undefined ? '' : `  target ${format(target)}: ${middle <= target ? 'met' : 'missed'}`;
  console.log(`${name.padEnd(26)} median ${format(middle)} of ${runs} (${times.map(format).join(', ')})${verdict}`);
}
