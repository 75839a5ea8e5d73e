// Brings a database to the latest schema. The migrations are imported statically, so this works the
// same under tsx, vitest and any bundler (no directory scanning).
import { Migrator, PostgresAdapter, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import * as createUsersAndApiKeys from './migrations/2026-11-21-0900-create-users-and-api-keys.ts';
import * as createReportsAndProjects from './migrations/2026-11-21-0910-create-reports-and-projects.ts';
import * as createWebSessions from './migrations/2026-11-22-0900-create-web-sessions.ts';
import * as moveReportResultsToOwnTable from './migrations/2026-11-22-1000-move-report-results-to-own-table.ts';
import * as storedReportSummaries from './migrations/2026-11-22-1100-stored-report-summaries.ts';
import * as searchInSortIndexes from './migrations/2026-11-22-1200-search-in-sort-indexes.ts';
import * as reportsVersion from './migrations/2026-11-24-0900-reports-version.ts';
import * as projectSummaryIndexes from './migrations/2026-11-25-0900-project-summary-indexes.ts';
import * as dropStoredSummaries from './migrations/2026-11-26-0900-drop-stored-summaries.ts';
import * as projectOwnerStatistics from './migrations/2026-11-26-0910-project-owner-statistics.ts';
import * as createJobs from './migrations/2026-11-26-1600-create-jobs.ts';
import * as reportAnalysisState from './migrations/2026-11-27-0900-report-analysis-state.ts';
import * as createWebhooks from './migrations/2026-11-27-0910-create-webhooks.ts';
import * as reportRuns from './migrations/2026-11-27-1000-report-runs.ts';
import * as reportSchedules from './migrations/2026-11-27-1100-report-schedules.ts';
import * as createCrawls from './migrations/2026-11-28-0900-create-crawls.ts';
import * as reportRunRendered from './migrations/2026-11-28-1000-report-run-rendered.ts';
import * as reportScoreSort from './migrations/2026-11-28-1200-report-score-sort.ts';
import * as jobGenerations from './migrations/2026-11-30-0900-job-generations.ts';
import * as crawlBounds from './migrations/2026-12-02-0900-crawl-bounds.ts';
import * as crawlSettings from './migrations/2026-12-03-0900-crawl-settings.ts';
import * as crawlListMode from './migrations/2026-12-03-1000-crawl-list-mode.ts';
import * as runLab from './migrations/2026-12-03-1100-run-lab.ts';
import * as crawlLab from './migrations/2026-12-03-1200-crawl-lab.ts';
import * as runStructuredData from './migrations/2026-12-04-1000-run-structured-data.ts';
import * as crawlRichResultErrors from './migrations/2026-12-04-1100-crawl-rich-result-errors.ts';
import * as organizations from './migrations/2026-12-04-1200-organizations.ts';
import * as shareLinks from './migrations/2026-12-04-1300-share-links.ts';

/** Applied in key order (Kysely sorts names); a name, once released, never changes. */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21-0900-create-users-and-api-keys': createUsersAndApiKeys,
  '2026-11-21-0910-create-reports-and-projects': createReportsAndProjects,
  '2026-11-22-0900-create-web-sessions': createWebSessions,
  '2026-11-22-1000-move-report-results-to-own-table': moveReportResultsToOwnTable,
  '2026-11-22-1100-stored-report-summaries': storedReportSummaries,
  '2026-11-22-1200-search-in-sort-indexes': searchInSortIndexes,
  '2026-11-24-0900-reports-version': reportsVersion,
  '2026-11-25-0900-project-summary-indexes': projectSummaryIndexes,
  '2026-11-26-0900-drop-stored-summaries': dropStoredSummaries,
  '2026-11-26-0910-project-owner-statistics': projectOwnerStatistics,
  '2026-11-26-1600-create-jobs': createJobs,
  '2026-11-27-0900-report-analysis-state': reportAnalysisState,
  '2026-11-27-0910-create-webhooks': createWebhooks,
  '2026-11-27-1000-report-runs': reportRuns,
  '2026-11-27-1100-report-schedules': reportSchedules,
  '2026-11-28-0900-create-crawls': createCrawls,
  '2026-11-28-1000-report-run-rendered': reportRunRendered,
  '2026-11-28-1200-report-score-sort': reportScoreSort,
  '2026-11-30-0900-job-generations': jobGenerations,
  '2026-12-02-0900-crawl-bounds': crawlBounds,
  '2026-12-03-0900-crawl-settings': crawlSettings,
  '2026-12-03-1000-crawl-list-mode': crawlListMode,
  '2026-12-03-1100-run-lab': runLab,
  '2026-12-03-1200-crawl-lab': crawlLab,
  '2026-12-04-1000-run-structured-data': runStructuredData,
  '2026-12-04-1100-crawl-rich-result-errors': crawlRichResultErrors,
  '2026-12-04-1200-organizations': organizations,
  '2026-12-04-1300-share-links': shareLinks,
};

/** Applies pending migrations; returns the names applied now (empty when already up to date). */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return migrate(db, (migrator) => migrator.migrateToLatest());
}

/** Applies the migrations up to and including `name` (a migration's test starts from the schema before it). */
export async function migrateTo(db: Kysely<any>, name: string): Promise<string[]> {
  if (!(name in MIGRATIONS)) throw new Error(`no migration is named ${name}`);
  return migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(db: Kysely<any>, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableSchema: await postgresCurrentSchema(db),
  });
  const { error, results = [] } = await run(migrator);
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(before any migration ran)'} failed: ${message}`, {
      cause: error,
    });
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/**
 * Kysely's Migrator looks for its bookkeeping tables in every schema unless told which one, so two
 * schemas in one database (tests run side by side) would see each other's. Pin it to current_schema().
 */
async function postgresCurrentSchema(db: Kysely<any>): Promise<string | undefined> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('PostgreSQL has no current schema: the search_path names no existing schema.');
  return schema;
}
