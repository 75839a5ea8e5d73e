#!/usr/bin/env node
// The installed `pagegrade` binary: runs the compiled command line (dist/, made by `npm run build`,
// which `npm ci` runs), with no TypeScript loader. An error out of a command exits 1 with it on stderr.
import { fileURLToPath } from 'node:url';

const MAIN = new URL('../dist/cli/main.js', import.meta.url);

let runCli;
try {
  ({ runCli } = await import(MAIN.href));
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(fileURLToPath(MAIN))) {
    process.stderr.write('pagegrade: dist/ is missing: build it with `npm run build` (in a checkout, `npm ci` does).\n');
    process.exit(1);
  }
  throw error;
}

try {
  process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
} catch (error) {
  process.stderr.write(`pagegrade: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
