// `npm run build` (and `prepare`, so `npm ci` builds): compile src/ into dist/ with tsc
// (tsconfig.build.json: `.ts` import specifiers become `.js`), then copy beside it the files the
// compiled code loads at run time (the web assets, the plain `.mjs` worker threads, the data files such
// as the schema.org vocabulary structured/schema-org-30.0.json): every file of src/ that is not `.ts`.
// Plain JavaScript, so it runs with no TypeScript loader.
//
// tsc is incremental (dist/.tsbuildinfo): a build with nothing changed takes a few seconds. Files of
// dist/ whose source is gone are deleted, so a stale module never ships. dist/.built is touched last:
// test/support/processes.ts compares it with the sources to refuse a stale build.
//
// `--skip-without-typescript` (the `prepare` script): with no TypeScript installed, as under
// `npm ci --omit=dev`, say so and leave dist/ as it is instead of failing the install.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
/** Registers tsx for the TypeScript worker when running from the sources; the compiled worker needs none. */
const SOURCE_ONLY = new Set(['analysis/analysis-worker.mjs']);
/** What tsc and this script keep in dist/ for themselves, never shipped (package.json `files`). */
const BOOKKEEPING = new Set(['.tsbuildinfo', '.built']);

/** Every file under `directory`, as paths relative to it with forward slashes. */
function files(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

const started = performance.now();
let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  if (process.argv.includes('--skip-without-typescript')) {
    console.log(
      existsSync(DIST)
        ? 'pagegrade: TypeScript is not installed (npm ci --omit=dev?): not building; dist/ is kept as it is.'
        : 'pagegrade: TypeScript is not installed (npm ci --omit=dev?), so there is no dist/ and `npm start` cannot run. ' +
            'Build with a full `npm ci`, then `npm prune --omit=dev`, or install the packed package (docs/production.md).',
    );
    process.exit(0);
  }
  console.error('pagegrade: the build needs TypeScript, a development dependency: run `npm ci` (not `--omit=dev`) first.');
  process.exit(1);
}

// tsc --incremental trusts its record of what it emitted: if a compiled file went missing since, start over.
const compiledSources = new Set(files(SRC).filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts')));
if ([...compiledSources].some((path) => !existsSync(join(DIST, `${path.slice(0, -'.ts'.length)}.js`)))) {
  rmSync(join(DIST, '.tsbuildinfo'), { force: true });
}

const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) {
  console.error(`pagegrade: tsc -p tsconfig.build.json failed (${compiled.status ?? compiled.signal})`);
  process.exit(1);
}

const runtimeFiles = files(SRC).filter((path) => !path.endsWith('.ts') && !SOURCE_ONLY.has(path));
let copied = 0;
for (const path of runtimeFiles) {
  const from = join(SRC, path);
  const to = join(DIST, path);
  // Only what changed: a build beside running tests does not rewrite the files they load.
  if (existsSync(to) && readFileSync(to).equals(readFileSync(from))) continue;
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  copied++;
}

const shipped = new Set(runtimeFiles);
const deleted = [];
for (const path of files(DIST)) {
  if (BOOKKEEPING.has(path) || shipped.has(path)) continue;
  const source = path.endsWith('.js') ? `${path.slice(0, -'.js'.length)}.ts` : null;
  if (source && compiledSources.has(source)) continue;
  rmSync(join(DIST, path));
  deleted.push(path);
}

writeFileSync(join(DIST, '.built'), `${new Date().toISOString()}\n`);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const modules = files(DIST).filter((path) => path.endsWith('.js') && !shipped.has(path)).length;
console.log(`pagegrade: built dist/ in ${seconds} s (${modules} modules, ${copied} run-time files copied${deleted.length ? `; deleted, their sources gone: ${deleted.join(', ')}` : ''})`);
