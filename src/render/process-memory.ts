// How much memory a browser uses: its process and every process under it (renderers, GPU, network
// service), read from /proc on Linux. PSS, not RSS: Chromium's processes share most of their pages,
// and adding up RSS would count those once per process. Elsewhere there is no /proc and the answer is
// null (the pool then recycles browsers by page count alone).
import { readdir, readFile } from 'node:fs/promises';

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return null;
  }
}

async function processIds(): Promise<number[] | null> {
  try {
    return (await readdir('/proc')).filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return null;
  }
}

/** The process whose command line holds `argument` exactly (a marker given at launch), or null. */
export async function findProcessWithArgument(argument: string): Promise<number | null> {
  for (const pid of (await processIds()) ?? []) {
    const cmdline = await readOrNull(`/proc/${pid}/cmdline`);
    if (cmdline?.split('\0').includes(argument)) return pid;
  }
  return null;
}

/** The parent of each live process. */
async function parents(): Promise<Map<number, number> | null> {
  const pids = await processIds();
  if (pids === null) return null;
  const map = new Map<number, number>();
  await Promise.all(
    pids.map(async (pid) => {
      const stat = await readOrNull(`/proc/${pid}/stat`);
      // After the command name, in parentheses and possibly holding spaces: state, then ppid.
      if (stat !== null) map.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    }),
  );
  return map;
}

/** `root` and every process below it. */
async function processTree(root: number): Promise<number[]> {
  const parentOf = await parents();
  if (parentOf === null) return [root];
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parentOf) if (parent === tree[i]) tree.push(pid);
  }
  return tree;
}

async function pssKilobytes(pid: number): Promise<number | null> {
  const rollup = await readOrNull(`/proc/${pid}/smaps_rollup`);
  const pss = rollup === null ? null : /^Pss:\s+(\d+) kB$/m.exec(rollup);
  return pss === null ? null : Number(pss[1]);
}

/**
 * Megabytes (PSS) of `root` and its descendants, or of its descendants alone (a server's browsers);
 * null when /proc cannot tell.
 */
export async function processTreeMb(root: number, { withRoot = true } = {}): Promise<number | null> {
  let kilobytes = 0;
  let measured = false;
  for (const pid of await processTree(root)) {
    if (pid === root && !withRoot) continue;
    const pss = await pssKilobytes(pid);
    if (pss === null) continue;
    kilobytes += pss;
    measured = true;
  }
  return measured ? Math.round(kilobytes / 1024) : null;
}
