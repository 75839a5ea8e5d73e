// The one door for lists: every list the API and the dashboard show (reports, projects, runs, crawls
// and their pages, webhooks and their deliveries) is read here, one function per list. Lists are plain queries today; if a list ever needs to be faster, what keeps
// state for it (kept answers, an index in memory) goes behind these functions and nowhere else.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { ProjectRow } from '../db/tables/project.table.ts';
import type { Verdict } from '../analysis/types.ts';
import * as reportRepository from '../repositories/report.repository.ts';
import type { ReportListRow } from '../repositories/report.repository.ts';
import * as projectRepository from '../repositories/project.repository.ts';
import * as crawlRepository from '../repositories/crawl.repository.ts';
import * as webhookRepository from '../repositories/webhook.repository.ts';
import { listRuns, previousRunScores } from '../repositories/report-run.repository.ts';
import { NotFoundError } from '../services/errors.ts';
import { toRunSummary } from '../services/run-view.ts';
import { toReportSummary } from '../services/report-view.ts';
import { toProject } from '../services/project-view.ts';
import type { Page, Project, ReportState, ReportSummary, RunSummary } from '../services/types.ts';
import { readAllRows, readPage } from './page.ts';
import type { Crawl, CrawlPage } from '../services/crawl-view.ts';
import type { Webhook, WebhookDelivery } from '../services/webhook-view.ts';
import { readCrawlPageRows, readCrawlPages, readCrawls, type CrawlListQuery, type CrawlPageListQuery, type CrawlPageRowsQuery } from './crawls.ts';
import { readDeliveries, readWebhooks, type WebhookListQuery } from './webhooks.ts';

export interface ReportListQuery {
  /** case-insensitive substring of the url */
  search?: string;
  /** exact project name */
  project?: string;
  result?: Verdict;
  /** the latest analysis's state */
  state?: ReportState;
  sortBy: 'id' | 'generated_at' | 'url' | 'result' | 'score';
  sort: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** A report list read whole (an export): the list's filters and sort, without a page. */
export type ReportRowsQuery = Omit<ReportListQuery, 'page' | 'perPage'>;

export interface ProjectListQuery {
  /** case-insensitive substring of the name */
  search?: string;
  sortBy: 'created_at' | 'project';
  sort: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** A project list read whole (an export): the list's search and sort, without a page. */
export type ProjectRowsQuery = Omit<ProjectListQuery, 'page' | 'perPage'>;

/** Rows a whole-list read (readAllRows) holds at a time. */
const ROWS_BATCH = 500;

export function createLists(db: Kysely<Database>) {
  /** How many of the account's reports match. Without a search or state the project rows hold the count. */
  function countReports(accountId: number, query: ReportListQuery): Promise<number> {
    if (query.search || query.state) return reportRepository.countReports(db, accountId, query);
    return projectRepository.sumProjectCounts(db, accountId, query.result ?? 'reports', query.project);
  }

  return {
    /** One page of the account's reports, newest first unless sorted otherwise. */
    reports(accountId: number, query: ReportListQuery): Promise<Page<ReportSummary>> {
      return readPage(
        query.page,
        query.perPage,
        async (window) => (await reportRepository.listReports(db, accountId, { ...query, ...window })).map(toReportSummary),
        () => countReports(accountId, query),
      );
    },

    /**
     * The score of the run before the latest of each of the account's reports in `reportIds` (one list
     * page's), by report id; reports without a previous run are absent. One indexed query for the page,
     * which reads no run's results.
     */
    async previousScores(accountId: number, reportIds: readonly number[]): Promise<Map<number, number>> {
      const rows = await previousRunScores(db, accountId, reportIds);
      return new Map(rows.map((row) => [row.report_id, row.score]));
    },

    /**
     * The id of the account's newest report of `url` made before report `beforeId`: the earlier report
     * a new one of the same page duplicates (its page says so on the dashboard); null when there is none.
     */
    earlierReportOfUrl(accountId: number, url: string, beforeId: number): Promise<number | null> {
      return reportRepository.findNewestReportIdOfUrl(db, accountId, url, beforeId);
    },

    /** One page of a report's runs, newest first; NotFoundError when the report is not the account's. */
    async runs(accountId: number, reportId: number, query: { page: number; perPage: number }): Promise<Page<RunSummary>> {
      const report = await reportRepository.findReportRow(db, accountId, reportId);
      if (report === undefined) throw new NotFoundError();
      return readPage(
        query.page,
        query.perPage,
        async (window) => (await listRuns(db, reportId, window)).map(toRunSummary),
        // The report counts the runs it keeps.
        async () => report.runs_count,
      );
    },

    /**
     * Every report of the account's list, in its order (filters and sort as reports(), no page), read
     * in batches as the caller consumes them, each batch its own statement (no transaction held open
     * for a slow reader). A report whose sort key changes meanwhile (a new run moves its score) may be
     * read twice or not at all; by id, the default, each report there throughout is read once.
     */
    reportRows(accountId: number, query: ReportRowsQuery): AsyncGenerator<ReportSummary> {
      const readBatch = (limit: number, after?: ReportListRow) => reportRepository.listReportsAfter(db, accountId, { ...query, limit }, after);
      return readAllRows(ROWS_BATCH, readBatch, toReportSummary);
    },

    /** Every project of the account's list, in its order, read in batches as reportRows() reads reports. */
    projectRows(accountId: number, query: ProjectRowsQuery): AsyncGenerator<Project> {
      const readBatch = (limit: number, after?: ProjectRow) => projectRepository.listProjectsAfter(db, accountId, { ...query, limit }, after);
      return readAllRows(ROWS_BATCH, readBatch, toProject);
    },

    /** One page of the account's crawls. */
    crawls(accountId: number, query: CrawlListQuery): Promise<Page<Crawl>> {
      return readCrawls(db, accountId, query);
    },

    /** One page of the pages a crawl reached; NotFoundError when the crawl is not the account's. */
    async crawlPages(accountId: number, crawlId: number, query: CrawlPageListQuery): Promise<Page<CrawlPage>> {
      if ((await crawlRepository.findCrawl(db, accountId, crawlId)) === undefined) throw new NotFoundError();
      return readCrawlPages(db, crawlId, query);
    },

    /** Every page a crawl reached, for an export, read in batches as the caller consumes them; NotFoundError as crawlPages(). */
    async *crawlPageRows(accountId: number, crawlId: number, query: CrawlPageRowsQuery): AsyncGenerator<CrawlPage> {
      if ((await crawlRepository.findCrawl(db, accountId, crawlId)) === undefined) throw new NotFoundError();
      yield* readCrawlPageRows(db, crawlId, query);
    },

    /** One page of the account's webhooks, oldest first. */
    webhooks(accountId: number, query: WebhookListQuery): Promise<Page<Webhook>> {
      return readWebhooks(db, accountId, query);
    },

    /** One page of a webhook's deliveries, newest first; NotFoundError when the webhook is not the account's. */
    async webhookDeliveries(accountId: number, webhookId: number, query: WebhookListQuery): Promise<Page<WebhookDelivery>> {
      if ((await webhookRepository.findWebhook(db, accountId, webhookId)) === undefined) throw new NotFoundError();
      return readDeliveries(db, webhookId, query);
    },

    /** One page of the account's projects. */
    projects(accountId: number, query: ProjectListQuery): Promise<Page<Project>> {
      return readPage(
        query.page,
        query.perPage,
        async (window) => (await projectRepository.listProjects(db, accountId, { ...query, ...window })).map(toProject),
        () => projectRepository.countProjects(db, accountId, query),
      );
    },
  };
}
