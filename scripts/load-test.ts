// Load test on this machine: the real server as a child process (a fresh SQLite database, or
// DATABASE_URL when set), a loopback site for it to analyse, some seeded reports, then autocannon
// mixing reads and writes for a while. Prints a table (requests, statuses, rate, latency, the
// server's memory) and exits 1 if any answer was a 5xx, a request failed or timed out, or the
// server's memory grew after warm-up: the median RSS of the last quarter of the run more than 20%
// above the median of the quarter after warm-up (medians, because a garbage-collected heap saws).
//
//   npx tsx scripts/load-test.ts [--seconds 60] [--connections 16] [--warmup <s>]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { goodPage, html, startSite, type Site } from '../test/support/site-server.ts';
import { startServerProcess, type ServerProcess } from '../test/support/server-process.ts';

/** RSS may grow this much from the end of warm-up to the end of the run. */
const MAX_RSS_GROWTH = 0.2;
/** Shorter runs end before the heap settles, so their memory is reported but not judged. */
const MIN_JUDGED_SECONDS = 30;
const SEED_REPORTS = 40;
const PAGES = 20;
const MIX = { read: 0.7, create: 0.2, update: 0.1 };

type Kind = 'list' | 'show' | 'projects' | 'create' | 'update';

interface AutocannonRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}
interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
// autocannon ships no types; the few fields used are declared above.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function options() {
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '60' }, connections: { type: 'string', default: '16' }, warmup: { type: 'string' } },
  });
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  const warmup = values.warmup === undefined ? Math.min(15, Math.max(1, Math.round(seconds / 4))) : Number(values.warmup);
  for (const [name, value] of Object.entries({ seconds, connections, warmup })) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  }
  if (warmup >= seconds) throw new Error('--warmup must be shorter than --seconds');
  return { seconds, connections, warmup };
}

/** Pages of every verdict: some good, some bare. */
async function startLoadSite(): Promise<Site> {
  const routes = Object.fromEntries(
    Array.from({ length: PAGES }, (_, i) => [
      `/p${i}`,
      html(i % 3 === 0 ? '<html><body><h3>bare</h3><img src="a.bmp"></body></html>' : goodPage(`Mountain coffee, page ${i} of our guide`)),
    ]),
  );
  return startSite(routes);
}

function rssKb(pid: number): number | null {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return null;
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) : null;
}

async function seed(server: ServerProcess, key: string, site: Site): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < SEED_REPORTS; i++) {
    const response = await fetch(`${server.origin}/api/v1/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: site.url(`/p${i % PAGES}`) }),
    });
    if (response.status !== 201) throw new Error(`seeding failed: ${response.status} ${await response.text()}`);
    ids.push(((await response.json()) as { data: { id: number } }).data.id);
  }
  return ids;
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** One request of the mix, chosen at random each time a connection sends. */
function nextRequest(ids: number[], site: Site): { kind: Kind; request: AutocannonRequest } {
  const roll = Math.random();
  const json = { 'content-type': 'application/json' };
  if (roll < MIX.read) {
    const read = Math.random();
    if (read < 0.4) {
      const query = pick(['', '?sort_by=url&sort=asc', '?result=good', '?search=p1&per_page=10', '?sort_by=result&page=2&per_page=25']);
      return { kind: 'list', request: { method: 'GET', path: `/api/v1/reports${query}` } };
    }
    if (read < 0.8) return { kind: 'show', request: { method: 'GET', path: `/api/v1/reports/${pick(ids)}` } };
    return { kind: 'projects', request: { method: 'GET', path: '/api/v1/projects?sort_by=project&sort=asc' } };
  }
  if (roll < MIX.read + MIX.create) {
    const body = JSON.stringify({ url: site.url(`/p${Math.floor(Math.random() * PAGES)}`), privacy: pick([0, 1]) });
    return { kind: 'create', request: { method: 'POST', path: '/api/v1/reports', headers: json, body } };
  }
  const body = JSON.stringify({ privacy: pick([0, 1]) });
  return { kind: 'update', request: { method: 'PUT', path: `/api/v1/reports/${pick(ids)}`, headers: json, body } };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function megabytes(kb: number | null | undefined): string {
  return kb == null ? 'n/a' : `${(kb / 1024).toFixed(1)} MB`;
}

async function main(): Promise<number> {
  const { seconds, connections, warmup } = options();
  const key = `pg_${randomBytes(24).toString('base64url')}`;
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-load-'));
  const databaseUrl = process.env.DATABASE_URL || `sqlite:${join(dir, 'pagegrade.db')}`;
  const site = await startLoadSite();
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess({
      DATABASE_URL: databaseUrl,
      PAGEGRADE_ADMIN_KEY: key,
      // PostgreSQL needs one to start; the run signs no webhooks that matter.
      PAGEGRADE_SECRET_KEY: process.env.PAGEGRADE_SECRET_KEY || randomBytes(32).toString('base64url'),
      PAGEGRADE_ALLOW_PRIVATE_URLS: '1',
      // The per-key limit would turn the load into 429s; the analysis bound stays as shipped.
      PAGEGRADE_RATE_LIMIT: '100000000',
      // Bounded caches that fill as the run goes on are kept small, so the memory check sees leaks rather
      // than a cache filling: SQLite's page cache (256 MB by default) grows with the database the run's
      // creates make, for longer than a minute (60 s on a 2-core EPYC: +48% at the default, -1% at 16 MB).
      PAGEGRADE_SQLITE_CACHE_MB: '16',
      LOG_LEVEL: 'warn',
    });
    const ids = await seed(server, key, site);

    const sent: Record<Kind, number> = { list: 0, show: 0, projects: 0, create: 0, update: 0 };
    const samples: { second: number; kb: number | null }[] = [];
    const started = Date.now();
    const pid = server.pid;
    const sampler = setInterval(() => samples.push({ second: (Date.now() - started) / 1000, kb: rssKb(pid) }), 1000);
    const result = await autocannon({
      url: server.origin,
      connections,
      duration: seconds,
      headers: { authorization: `Bearer ${key}` },
      requests: [
        {
          setupRequest: (base: AutocannonRequest) => {
            const { kind, request } = nextRequest(ids, site);
            sent[kind] += 1;
            return { ...base, ...request, headers: { ...base.headers, ...request.headers } };
          },
        },
      ],
    });
    clearInterval(sampler);
    const healthy = (await fetch(`${server.origin}/health`)).status === 200;
    server.child.kill('SIGTERM');
    const exit = await server.exited;

    const statuses = Object.entries(result.statusCodeStats).sort(([a], [b]) => Number(a) - Number(b));
    const fivexx = statuses.filter(([code]) => code.startsWith('5')).reduce((sum, [, { count }]) => sum + count, 0);
    const measured = samples.filter((sample) => sample.second >= warmup && sample.kb !== null).map((sample) => sample.kb!);
    const quarter = Math.max(1, Math.floor(measured.length / 4));
    const afterWarmup = median(measured.slice(0, quarter));
    const atEnd = median(measured.slice(-quarter));
    const peak = Math.max(...measured);
    const growth = afterWarmup && atEnd ? (atEnd - afterWarmup) / afterWarmup : null;
    const trace = samples
      .filter((_, index) => index % 5 === 4)
      .map((sample) => (sample.kb === null ? '-' : (sample.kb / 1024).toFixed(0)))
      .join(' ');
    const judged = seconds >= MIN_JUDGED_SECONDS && growth !== null;
    const rssOk = !judged || growth! <= MAX_RSS_GROWTH;
    const passed = fivexx === 0 && result.errors === 0 && result.timeouts === 0 && healthy && exit.code === 0 && rssOk;
    const database = databaseUrl.startsWith('sqlite:') ? 'SQLite' : 'PostgreSQL';
    const totalSent = Object.values(sent).reduce((a, b) => a + b, 0) || 1;
    const share = (kind: Kind) => `${sent[kind]} (${Math.round((100 * sent[kind]) / totalSent)}%)`;

    const rows: [string, string][] = [
      ['run', `${result.duration} s, ${connections} connections, ${database}, Node ${process.version}`],
      ['requests', String(result.requests.total)],
      ['rate', `${result.requests.average.toFixed(1)} req/s`],
      ['latency p50 / p99 / max', `${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} ms`],
      ['sent: list / show / projects', `${share('list')} / ${share('show')} / ${share('projects')}`],
      ['sent: create / update', `${share('create')} / ${share('update')}`],
      ...statuses.map(([code, { count }]): [string, string] => [`status ${code}`, String(count)]),
      ['5xx', String(fivexx)],
      ['errors / timeouts', `${result.errors} / ${result.timeouts}`],
      ['RSS every 5 s (MB)', trace || 'n/a'],
      [`RSS median, quarter after ${warmup} s warm-up`, megabytes(afterWarmup)],
      ['RSS median, last quarter', `${megabytes(atEnd)}${growth === null ? '' : ` (${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)}%)`}`],
      ['RSS peak after warm-up', megabytes(measured.length > 0 ? peak : null)],
      ['memory judged', judged ? `yes (at most +${MAX_RSS_GROWTH * 100}%)` : `no (runs under ${MIN_JUDGED_SECONDS} s, or no /proc)`],
      ['health after, exit on SIGTERM', `${healthy ? 200 : 'failed'}, ${exit.code ?? exit.signal}`],
      ['verdict', passed ? 'PASS' : 'FAIL'],
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    process.stdout.write(`\n| ${'measure'.padEnd(width)} | value |\n| ${'-'.repeat(width)} | ----- |\n`);
    for (const [name, value] of rows) process.stdout.write(`| ${name.padEnd(width)} | ${value} |\n`);
    return passed ? 0 : 1;
  } finally {
    server?.child.kill('SIGKILL');
    await site.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`load test failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
