// Where a default report list's time goes, on SQLite: `npx tsx bench/experiments/list-floor.ts [--full | --quick]`.
// Loads, in turns, a floor like the read benchmark's (bare Fastify answering a prebuilt body: here the
// statements' own answer), the same three SQL statements behind bare Fastify (list-queries-server.ts),
// and pagegrade's GET /api/v1/reports, over the read benchmark's
// database (20,000 reports, or with --full the cached million; --quick: a throwaway 20,000, one short
// round, as test/bench/list-floor.test.ts runs it). Prints requests per second of each and their
// ratios: how far the statements alone are from the floor, and pagegrade from the statements.
// pagegrade keeps no list answers here (PAGEGRADE_LIST_CACHE_MB=0), so it runs the statements too.
import { parseArgs } from 'node:util';
import { runLoad, type LoadResult } from '../load.ts';
import { startPagegrade } from '../pagegrade-server.ts';
import { freePort, startService } from '../processes.ts';
import { seededRandom } from '../random.ts';
import { asRandomAccounts, READ_CONNECTIONS } from '../read.ts';
import { prepareReadDatabase } from '../seed.ts';
import { round } from '../stats.ts';

const { values } = parseArgs({ options: { full: { type: 'boolean', default: false }, quick: { type: 'boolean', default: false } } });
if (values.full && values.quick) {
  process.stderr.write('choose --full (the cached million) or --quick (a throwaway 20,000), not both\n');
  process.exit(2);
}
const size = { reports: values.full ? 1_000_000 : 20_000, accounts: 100, projectsPerAccount: 50 };
const rounds = values.quick ? 1 : 2;
const seconds = values.quick ? { warmUp: 0.5, measured: 1 } : { warmUp: 2, measured: 8 };
const database = await prepareReadDatabase('sqlite', size, !values.quick);
const port = await freePort();
const queries = await startService(
  'bench/experiments/list-queries-server.ts',
  port,
  { PORT: String(port), DATABASE_FILE: database.databaseUrl.slice('sqlite:'.length) },
  '/ready',
);
const pagegrade = await startPagegrade(database.databaseUrl, {}, { PAGEGRADE_LIST_CACHE_MB: '0' });
const random = seededRandom(7);
const load = (origin: string, path: string): Promise<LoadResult> =>
  runLoad({
    origin,
    connections: READ_CONNECTIONS,
    warmUpS: seconds.warmUp,
    durationS: seconds.measured,
    next: asRandomAccounts(random, database.accounts, () => path),
  });
try {
  await fetch(`${queries.origin}/queries`, { headers: { authorization: `Bearer ${database.accounts[0].apiKey}` } });
  const rows: string[] = [];
  for (let round_ = 1; round_ <= rounds; round_++) {
    const floor = await load(queries.origin, '/static');
    const statements = await load(queries.origin, '/queries');
    const list = await load(pagegrade.origin, '/api/v1/reports');
    rows.push(
      `| ${round_} | ${floor.rps} | ${statements.rps} | ${list.rps} | ${round(statements.rps / floor.rps, 3)} | ${round(list.rps / statements.rps, 3)} | ${round(list.rps / floor.rps, 3)} |`,
    );
  }
  process.stdout.write(
    [
      `Default report list, SQLite, ${size.reports} reports, ${READ_CONNECTIONS} connections (req/s)`,
      '',
      '| round | static floor | statements only | pagegrade | statements / floor | pagegrade / statements | pagegrade / floor |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await pagegrade.stop();
  await queries.stop();
  await database.dispose();
}
