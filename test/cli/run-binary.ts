// Runs the installed binary (bin/pagegrade.js) as a child process, the way users and CI run it: the
// compiled code in dist/ (`npm run build`; `npm run test:system` builds first).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertBuilt } from '../support/processes.ts';

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
const BINARY = fileURLToPath(new URL('../../bin/pagegrade.js', import.meta.url));

export interface BinaryRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The child gets this process's environment without anything that would change its behaviour
 * (colour switches, pagegrade settings, DATABASE_URL), plus `env`. Its stdout and stderr are pipes,
 * so it sees no terminal. Throws when dist/ is missing or older than src/ (assertBuilt).
 */
export function runBinary(args: string[], env: Record<string, string> = {}): Promise<BinaryRun> {
  assertBuilt();
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !['FORCE_COLOR', 'NO_COLOR', 'DATABASE_URL'].includes(name) && !name.startsWith('PAGEGRADE_'),
    ),
  );
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BINARY, ...args],
      { cwd: REPOSITORY, env: { ...inherited, ...env }, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      },
    );
  });
}

/** The environment of an `analyze` run against the loopback test site. */
export const LOOPBACK = { PAGEGRADE_ALLOW_PRIVATE_URLS: '1' } as const;

/**
 * LOOPBACK with timing limits no loopback fetch reaches, however loaded the machine: for tests that
 * compare two analyses of one page or count its failed checks, which a slow moment must not change.
 */
export const PATIENT = { ...LOOPBACK, PAGEGRADE_THRESHOLDS: JSON.stringify({ max_load_time_ms: 600_000, max_ttfb_ms: 600_000 }) };
