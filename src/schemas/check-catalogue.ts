// The check catalogue (docs/api.md, "Checks"): every check with what it means and how to fix it, in the
// shape of CheckDescription. GET /api/v1/checks and the MCP tool list_checks both answer it.
import type { CheckDefinition } from '../checks/check.ts';
import { allChecks } from '../checks/index.ts';
import type { SiteCheckDefinition } from '../crawl/site-checks/site-check.ts';
import { siteChecks } from '../crawl/site-checks/index.ts';
import { WEIGHTS } from '../scoring/score.ts';

function describeCheck(check: CheckDefinition | SiteCheckDefinition) {
  return {
    id: check.id,
    category: check.category,
    importance: check.importance,
    points: WEIGHTS[check.importance],
    title: check.title,
    failure_title: check.failureTitle,
    description: check.description,
    how_to_fix: check.howToFix,
    ...('catalogue' in check && check.catalogue),
  };
}

let catalogue: ReturnType<typeof describeCheck>[] | undefined;

/** Page checks in report order, then site checks; they never change while the process runs, so the list is made once. */
export function checkCatalogue(): readonly ReturnType<typeof describeCheck>[] {
  catalogue ??= [...allChecks, ...siteChecks].map(describeCheck);
  return catalogue;
}
