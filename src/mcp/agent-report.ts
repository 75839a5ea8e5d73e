// The agent report (docs/api.md, "MCP server"): what an MCP tool answers for a report, short enough for a
// model's context. It keeps the score, the verdict and the checks that failed with what they found, and
// leaves out what passed or did not apply: an agent asks what to fix.
import type { Analysis, CheckResult, IssueCounts, Verdict } from '../analysis/types.ts';
import type { Category, CheckErrors, Importance } from '../checks/check.ts';
import { checksById } from '../checks/index.ts';
import type { Report, ReportState } from '../services/types.ts';

export type FailedCheck = {
  id: string;
  importance: Importance;
  category: Category;
  /** the check's failure_title */
  title: string;
  value: unknown;
  errors: CheckErrors | null;
};

// Type aliases, not interfaces: an MCP result's structuredContent is a string-keyed record, which an
// interface is not assignable to.
export type AgentReport = {
  id: number;
  url: string;
  project: string;
  organization: number;
  state: ReportState;
  score: number | null;
  result: Verdict | null;
  issues: IssueCounts | null;
  generated_at: string | null;
  report_url: string;
  failed: FailedCheck[];
};

/** `pagegrade mcp`'s: nothing is stored, so there is no id, organisation, state or page to link to. */
export type LocalAgentReport = {
  url: string;
  project: string;
  score: number;
  result: Verdict;
  issues: IssueCounts;
  generated_at: string;
  failed: FailedCheck[];
};

const IMPORTANCE_ORDER: Readonly<Record<Importance, number>> = { high: 0, medium: 1, low: 2 };

/** Every check whose `passed` is false: high importance first, then medium, then low, each group by id. */
export function failedChecks(results: Readonly<Record<string, CheckResult>> | null): FailedCheck[] {
  return Object.entries(results ?? {})
    .filter(([, result]) => result.passed === false)
    .map(([id, result]) => ({
      id,
      importance: result.importance,
      category: result.category,
      // A stored report may name a check this version no longer has: its id then stands for it.
      title: checksById.get(id)?.failureTitle ?? id,
      value: result.value,
      errors: result.errors,
    }))
    .sort((a, b) => IMPORTANCE_ORDER[a.importance] - IMPORTANCE_ORDER[b.importance] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * A stored report's agent report. `organization` is the organisation it belongs to, `origin` the
 * server's (`https://pagegrade.example`), which the report's page lies under.
 */
export function agentReport(report: Report, where: { organization: number; origin: string }): AgentReport {
  return {
    id: report.id,
    url: report.url,
    project: report.project,
    organization: where.organization,
    state: report.state,
    score: report.score,
    result: report.result,
    issues: report.issues,
    generated_at: report.generated_at,
    report_url: `${where.origin}/reports/${report.id}`,
    failed: failedChecks(report.results),
  };
}

/** An analysis made in-process (`pagegrade mcp`): its project is its host, as a report's is by default. */
export function localAgentReport(analysis: Analysis): LocalAgentReport {
  return {
    url: analysis.url,
    project: new URL(analysis.url).host,
    score: analysis.score,
    result: analysis.result,
    issues: analysis.issues,
    generated_at: analysis.generatedAt.toISOString(),
    failed: failedChecks(analysis.results),
  };
}
