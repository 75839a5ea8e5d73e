// `npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [--windows s]`: where a V8 CPU profile
// (the benchmark's --cpu-prof, bench/.cache/profiles/) spent its time: self time by function, with
// the thread's idle time as `(idle)`. --windows s: instead, each s-second window's busy share and the
// share of its busy time in the named function (default executeQuery, Kysely's call into the driver).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const windowsAt = args.indexOf('--windows');
const windowS = windowsAt === -1 ? undefined : Number(args.splice(windowsAt, 2)[1]);
const [file, topArg] = args;
if (file === undefined) {
  console.error('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<string, number>();
let totalUs = 0;
profile.samples.forEach((id, index) => {
  const delta = profile.timeDeltas[index] ?? 0;
  totalUs += delta;
  const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
  const where = url === '' ? '' : ` ${url.replace(/^.*\/(node_modules|src|dist)\//, '$1/')}:${lineNumber + 1}`;
  const key = `${functionName || '(anonymous)'}${where}`;
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
});
if (windowS !== undefined) {
  const focus = topArg ?? 'executeQuery';
  const windows: { busy: number; focus: number; total: number }[] = [];
  let at = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const window = (windows[Math.floor(at / 1e6 / windowS)] ??= { busy: 0, focus: 0, total: 0 });
    const name = nodes.get(id)!.callFrame.functionName;
    window.total += delta;
    if (name !== '(idle)') window.busy += delta;
    if (name === focus) window.focus += delta;
  });
  windows.forEach((window, index) => {
    if (window === undefined || window.total === 0) return;
    const share = (part: number, whole: number) => (whole === 0 ? '-' : (part / whole).toFixed(2));
    console.log(`${String(index * windowS).padStart(5)} s  busy ${share(window.busy, window.total)}  ${focus} ${share(window.focus, window.busy)} of busy`);
  });
  process.exit(0);
}
const percent = (us: number) => `${((100 * us) / totalUs).toFixed(1)}%`;
console.log(`${(totalUs / 1e6).toFixed(1)} s sampled`);
for (const [key, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25))) {
  console.log(`${percent(us).padStart(6)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
}
