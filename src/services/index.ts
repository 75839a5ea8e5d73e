// The services every adapter (API routes, web pages, CLI) calls; built once per app.
import type { Config } from '../config.ts';
import type { AppDatabase } from '../db/open-database.ts';
import { createAnalyzer, type Analyzer } from '../analysis/analyze-url.ts';
import { createReportService } from './report.service.ts';
import { createProjectService } from './project.service.ts';
import { createAccountService } from './account.service.ts';
import { createHealthService } from './health.service.ts';

export type Services = ReturnType<typeof createServices>;

export function analyzerFromConfig(config: Config, onCheckFailure?: (checkId: string, error: unknown) => void): Analyzer {
  return createAnalyzer({
    fetch: {
      timeoutMs: config.fetchTimeoutMs,
      maxBytes: config.maxPageBytes,
      userAgent: config.userAgent,
      allowPrivate: config.allowPrivateUrls,
      publicAddressesForTests: config.publicAddressesForTests,
    },
    thresholds: config.thresholds,
    onCheckFailure,
  });
}

export function createServices(database: AppDatabase, config: Config, analyzer?: Analyzer) {
  const db = database.db;
  return {
    reports: createReportService(db, analyzer ?? analyzerFromConfig(config)),
    projects: createProjectService(db),
    accounts: createAccountService(db),
    health: createHealthService(db),
  };
}
