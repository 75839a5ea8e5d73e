// Background analysis: a report records the state of the latest analysis asked for
// (`state`: queued, running, done or failed, with `last_error`), and a report created with async=1
// exists before its first run, so everything a run produces becomes nullable: result, score, issues,
// page and generated_at are null together until a run succeeds (a check says so), and result_rank is
// -1 then, below every verdict, so sorting by result keeps one index and a result filter never
// matches. A project counts such reports but no verdict for them: reports_count may now exceed
// good + decent + bad. Frozen: never import application code here.
//
// SQLite cannot drop NOT NULL or a CHECK in place: both tables are built again under the same name,
// with their rows, ids, autoincrement counter and indexes. Its order for a null generated_at is
// already "null first ascending"; PostgreSQL's generated_at indexes are made again NULLS FIRST so
// both dialects sort reports without a run the same way, and each index still serves its sort.
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

const RUN_COLUMNS = ['result', 'score', 'issues_high', 'issues_medium', 'issues_low', 'page', 'generated_at'];

const RUN_CHECK = sql`(result is null and result_rank = -1 and score is null and issues_high is null
  and issues_medium is null and issues_low is null and page is null and generated_at is null)
  or (score is not null and issues_high is not null and issues_medium is not null and issues_low is not null
  and page is not null and generated_at is not null
  and ((result = 'bad' and result_rank = 0) or (result = 'decent' and result_rank = 1) or (result = 'good' and result_rank = 2)))`;
const STATE_CHECK = sql`state in ('queued', 'running', 'done', 'failed')`;
const PROJECT_COUNTS_CHECK = sql`reports_count >= 0 and good_count >= 0 and decent_count >= 0 and bad_count >= 0
  and reports_count >= good_count + decent_count + bad_count`;
const OLD_PROJECT_COUNTS_CHECK = sql`reports_count >= 0 and good_count >= 0 and decent_count >= 0 and bad_count >= 0
  and reports_count = good_count + decent_count + bad_count`;
const OLD_RESULT_RANK_CHECK = sql`(result = 'bad' and result_rank = 0) or (result = 'decent' and result_rank = 1)
  or (result = 'good' and result_rank = 2)`;

/** PostgreSQL's indexes that sort by generated_at, as (name, columns); made again NULLS FIRST. */
const GENERATED_AT_INDEXES: Record<string, string[]> = {
  reports_user_generated_at_idx: ['user_id', 'generated_at', 'id', 'url_lower'],
  reports_user_rank_generated_at_idx: ['user_id', 'result_rank', 'generated_at', 'id', 'url_lower'],
  reports_user_project_generated_at_idx: ['user_id', 'project', 'generated_at', 'id', 'url_lower'],
  reports_user_project_rank_generated_at_idx: ['user_id', 'project', 'result_rank', 'generated_at', 'id', 'url_lower'],
};

/** A state filter with the default sort (newest first) reads this index alone. */
const STATE_INDEX = { name: 'reports_user_state_idx', columns: ['user_id', 'state', 'id', 'url_lower'] };

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return upPostgres(db);
  await rebuildSqlite(db, {
    reports: sql`create table "reports_next" ("id" integer primary key autoincrement,
      "user_id" integer not null references "users" ("id") on delete cascade, "url" text not null,
      "url_lower" text not null, "project" text not null, "privacy" integer not null, "password_hash" text,
      "result" text, "result_rank" integer not null, "score" integer, "issues_high" integer,
      "issues_medium" integer, "issues_low" integer, "page" text, "generated_at" text,
      "created_at" text not null, "updated_at" text not null,
      "state" text not null default 'done', "last_error" text,
      constraint "reports_privacy_check" check (privacy in (0, 1, 2)),
      constraint "reports_score_check" check (score between 0 and 100),
      constraint "reports_run_check" check (${RUN_CHECK}),
      constraint "reports_state_check" check (${STATE_CHECK}))`,
    projects: projectsTable(PROJECT_COUNTS_CHECK),
    newIndexes: [STATE_INDEX],
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // Reports without a run cannot exist in the old schema; their projects lose them too.
  await sql`delete from reports where result is null`.execute(db);
  await sql`update projects set reports_count = good_count + decent_count + bad_count`.execute(db);
  await sql`delete from projects where reports_count = 0`.execute(db);
  if (isPostgres) return downPostgres(db);
  await rebuildSqlite(db, {
    reports: sql`create table "reports_next" ("id" integer primary key autoincrement,
      "user_id" integer not null references "users" ("id") on delete cascade, "url" text not null,
      "url_lower" text not null, "project" text not null, "privacy" integer not null, "password_hash" text,
      "result" text not null, "result_rank" integer not null, "score" integer not null,
      "issues_high" integer not null, "issues_medium" integer not null, "issues_low" integer not null,
      "page" text not null, "generated_at" text not null, "created_at" text not null, "updated_at" text not null,
      constraint "reports_privacy_check" check (privacy in (0, 1, 2)),
      constraint "reports_score_check" check (score between 0 and 100),
      constraint "reports_result_rank_check" check (${OLD_RESULT_RANK_CHECK}))`,
    projects: projectsTable(OLD_PROJECT_COUNTS_CHECK),
    dropIndexes: [STATE_INDEX.name],
  });
}

async function upPostgres(db: Kysely<any>): Promise<void> {
  for (const column of RUN_COLUMNS) await sql`alter table reports alter column ${sql.id(column)} drop not null`.execute(db);
  await sql`alter table reports drop constraint reports_result_rank_check`.execute(db);
  await sql`alter table reports add column state text collate "C" not null default 'done'`.execute(db);
  await sql`alter table reports add column last_error text`.execute(db);
  await sql`alter table reports add constraint reports_run_check check (${RUN_CHECK})`.execute(db);
  await sql`alter table reports add constraint reports_state_check check (${STATE_CHECK})`.execute(db);
  await sql`alter table projects drop constraint projects_counts_check`.execute(db);
  await sql`alter table projects add constraint projects_counts_check check (${PROJECT_COUNTS_CHECK})`.execute(db);
  await createGeneratedAtIndexes(db, sql`nulls first`);
  await db.schema.createIndex(STATE_INDEX.name).on('reports').columns(STATE_INDEX.columns).execute();
}

async function downPostgres(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex(STATE_INDEX.name).execute();
  await createGeneratedAtIndexes(db, sql``);
  await sql`alter table projects drop constraint projects_counts_check`.execute(db);
  await sql`alter table projects add constraint projects_counts_check check (${OLD_PROJECT_COUNTS_CHECK})`.execute(db);
  await sql`alter table reports drop constraint reports_state_check`.execute(db);
  await sql`alter table reports drop constraint reports_run_check`.execute(db);
  await sql`alter table reports drop column last_error`.execute(db);
  await sql`alter table reports drop column state`.execute(db);
  await sql`alter table reports add constraint reports_result_rank_check check (${OLD_RESULT_RANK_CHECK})`.execute(db);
  for (const column of RUN_COLUMNS) await sql`alter table reports alter column ${sql.id(column)} set not null`.execute(db);
}

async function createGeneratedAtIndexes(db: Kysely<any>, nullsOrder: RawBuilder<unknown>): Promise<void> {
  for (const [name, columns] of Object.entries(GENERATED_AT_INDEXES)) {
    await db.schema.dropIndex(name).execute();
    const parts = columns.map((column) => (column === 'generated_at' ? sql`generated_at ${nullsOrder}` : sql.id(column)));
    await sql`create index ${sql.id(name)} on reports (${sql.join(parts)})`.execute(db);
  }
}

function projectsTable(countsCheck: RawBuilder<unknown>) {
  return sql`create table "projects_next" ("id" integer primary key autoincrement,
    "user_id" integer not null references "users" ("id") on delete cascade, "name" text not null,
    "name_lower" text not null, "reports_count" integer not null, "good_count" integer not null,
    "decent_count" integer not null, "bad_count" integer not null, "created_at" text not null,
    "updated_at" text not null, constraint "projects_user_id_name_unique" unique ("user_id", "name"),
    constraint "projects_counts_check" check (${countsCheck}))`;
}

interface SqliteRebuild {
  reports: RawBuilder<unknown>;
  projects: RawBuilder<unknown>;
  newIndexes?: { name: string; columns: string[] }[];
  dropIndexes?: string[];
}

/**
 * SQLite's way to change a table's columns or checks (https://sqlite.org/lang_altertable.html, "other
 * kinds of table schema changes"): with foreign keys off (report_results points at reports, and
 * dropping reports would otherwise empty it), in one transaction, make the new table, copy the rows,
 * drop the old, rename the new, make the indexes again, and check no foreign key broke.
 */
async function rebuildSqlite(db: Kysely<any>, rebuild: SqliteRebuild): Promise<void> {
  const { rows: pragma } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await rebuild.reports.execute(trx);
      await replaceTable(trx, 'reports', (await columnsOf(trx, 'reports_next')).filter((column) => column !== 'state' && column !== 'last_error'));
      await rebuild.projects.execute(trx);
      await replaceTable(trx, 'projects', await columnsOf(trx, 'projects'));
      for (const index of rebuild.newIndexes ?? []) {
        await trx.schema.createIndex(index.name).on('reports').columns(index.columns).execute();
      }
      for (const name of rebuild.dropIndexes ?? []) await trx.schema.dropIndex(name).ifExists().execute();
      const { rows: broken } = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.length > 0) throw new Error(`rebuilding reports broke ${broken.length} foreign keys`);
    });
  } finally {
    if (pragma[0]?.foreign_keys === 1) await sql`pragma foreign_keys = on`.execute(db);
  }
}

/** Moves `table`'s rows (these columns) into `<table>_next`, then puts the new table in its place. */
async function replaceTable(db: Kysely<any>, table: string, columns: string[]): Promise<void> {
  const { rows: indexes } = await sql<{ name: string; sql: string }>`
    select name, sql from sqlite_master where type = 'index' and tbl_name = ${table} and sql is not null`.execute(db);
  const { rows: sequence } = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db);
  const list = sql.join(columns.map((column) => sql.id(column)));
  // A report without a run has result_rank -1 in the new schema and none exists in the old one.
  await sql`insert into ${sql.id(`${table}_next`)} (${list}) select ${list} from ${sql.id(table)}`.execute(db);
  await sql`drop table ${sql.id(table)}`.execute(db);
  await sql`alter table ${sql.id(`${table}_next`)} rename to ${sql.id(table)}`.execute(db);
  for (const index of indexes) {
    if (index.name === STATE_INDEX.name) continue;
    await sql.raw(index.sql).execute(db);
  }
  // The counter stays where it was, so an id deleted before the rebuild is never given out again.
  if (sequence.length > 0) {
    await sql`update sqlite_sequence set seq = max(seq, ${sequence[0].seq}) where name = ${table}`.execute(db);
  }
  const { rows: stat } = await sql<{ found: number }>`select count(*) as found from sqlite_master where name = 'sqlite_stat1'`.execute(db);
  if (stat[0].found > 0) await sql`analyze ${sql.id(table)}`.execute(db);
}

async function columnsOf(db: Kysely<any>, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db);
  return rows.map((row) => row.name);
}
