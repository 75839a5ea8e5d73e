// Every shape a list request can take, not only the read benchmark's five queries:
// `npx tsx bench/experiments/list-shapes.ts [--quick]` (with DATABASE_URL=postgres://... PostgreSQL too).
// Each filter combination of GET /api/v1/reports (search, project, result) in every sort and direction,
// the last page of the default list and of a search, and the projects list with and without a search,
// each loaded briefly through the real server over the read benchmark's cached million reports
// (--quick: a throwaway 2,000 on SQLite, a moment each, as test/bench/list-shapes.test.ts runs it).
// Prints req/s, p50 and p99 per shape, slowest first, and marks every p99 at or over 25 ms: the read
// benchmark's latency target, which its five queries alone would not show a slow sort or filter missing.
// The server keeps no list answers (PAGEGRADE_LIST_CACHE_MB=0): this measures what each query costs.
import { parseArgs } from 'node:util';
import type { DialectName } from '../../src/db/database.ts';
import { runLoad } from '../load.ts';
import { startPagegrade } from '../pagegrade-server.ts';
import { pick, seededRandom } from '../random.ts';
import { asRandomAccounts, READ_CONNECTIONS, type AccountPath } from '../read.ts';
import { prepareReadDatabase } from '../seed.ts';
import { SEARCH_TERM } from '../seed-rows.ts';
import { warmReportTables } from '../warm-cache.ts';

const P99_TARGET_MS = 25;
/** The VM pages out file cache idle for a minute: read the tables again this often (warm-cache.ts). */
const REWARM_EVERY_MS = 40_000;

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const size = values.quick
  ? { reports: 2_000, accounts: 20, projectsPerAccount: 5 }
  : { reports: 1_000_000, accounts: 100, projectsPerAccount: 50 };
/** --quick: a few requests per shape (autocannon ends a timed run only on a whole second). */
const load = values.quick ? { warmUp: 0, measured: { amount: 30 } } : { warmUp: 1, measured: { durationS: 3 } };
const withPostgres = !values.quick && process.env.DATABASE_URL?.startsWith('postgres');
const dialects: DialectName[] = withPostgres ? ['sqlite', 'postgres'] : ['sqlite'];

type Shape = { name: string; path: AccountPath };

const VERDICTS = ['good', 'decent', 'bad'] as const;
/** Reports per account at this size, for the last page of a list of 100 per page. */
const lastPage = Math.ceil(size.reports / size.accounts / 100);

function reportShapes(): Shape[] {
  const shapes: Shape[] = [];
  for (const search of [false, true]) {
    for (const project of [false, true]) {
      for (const result of [false, true]) {
        for (const sortBy of ['id', 'generated_at', 'url', 'result']) {
          for (const sort of ['asc', 'desc']) {
            const named = [search && 'search', project && 'project', result && 'result'].filter(Boolean);
            const filters = named.join('+') || 'no filter';
            shapes.push({
              name: `reports, ${filters}, by ${sortBy} ${sort}`,
              path: (random, account) => {
                const query = new URLSearchParams({ sort_by: sortBy, sort });
                if (search) query.set('search', SEARCH_TERM);
                if (project) query.set('project', pick(random, account.projects));
                if (result) query.set('result', pick(random, VERDICTS));
                return `/api/v1/reports?${query}`;
              },
            });
          }
        }
      }
    }
  }
  shapes.push({ name: `reports, no filter, last page (${lastPage})`, path: () => `/api/v1/reports?page=${lastPage}` });
  shapes.push({ name: 'reports, search, page 5', path: () => `/api/v1/reports?search=${SEARCH_TERM}&page=5` });
  for (const search of [false, true]) {
    for (const sortBy of ['created_at', 'project']) {
      for (const sort of ['asc', 'desc']) {
        shapes.push({
          name: `projects, ${search ? 'search' : 'no filter'}, by ${sortBy} ${sort}`,
          path: () => `/api/v1/projects?sort_by=${sortBy}&sort=${sort}${search ? '&search=site' : ''}`,
        });
      }
    }
  }
  return shapes;
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
}

async function measureShapes(dialect: DialectName): Promise<Row[]> {
  const database = await prepareReadDatabase(dialect, size, !values.quick, process.env.DATABASE_URL);
  const server = await startPagegrade(database.databaseUrl, {}, { PAGEGRADE_LIST_CACHE_MB: '0' });
  const rows: Row[] = [];
  try {
    let warmedAt = -Infinity;
    for (const [index, shape] of reportShapes().entries()) {
      if (!values.quick && performance.now() - warmedAt > REWARM_EVERY_MS) {
        await warmReportTables(dialect, database.databaseUrl);
        warmedAt = performance.now();
      }
      const next = asRandomAccounts(seededRandom(index + 1), database.accounts, shape.path);
      if (load.warmUp > 0) await runLoad({ origin: server.origin, connections: READ_CONNECTIONS, durationS: load.warmUp, next });
      const result = await runLoad({ origin: server.origin, connections: READ_CONNECTIONS, ...load.measured, next });
      rows.push({ name: shape.name, rps: result.rps, p50: result.p50_ms, p99: result.p99_ms });
    }
  } finally {
    await server.stop();
    await database.dispose();
  }
  return rows.sort((a, b) => b.p99 - a.p99);
}

const lines: string[] = [];
for (const dialect of dialects) {
  const rows = await measureShapes(dialect);
  const over = rows.filter((row) => row.p99 >= P99_TARGET_MS).length;
  lines.push(
    `List shapes, ${dialect}, ${size.reports} reports, ${READ_CONNECTIONS} connections: ${rows.length} shapes, ${over} with p99 >= ${P99_TARGET_MS} ms`,
    '',
    '| shape | req/s | p50 ms | p99 ms | p99 target |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.name} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.p99 < P99_TARGET_MS ? 'met' : 'MISSED'} |`),
    '',
  );
}
process.stdout.write(lines.join('\n'));
