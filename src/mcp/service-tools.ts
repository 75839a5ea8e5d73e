// The eight MCP tools over the server's services (docs/organisations.md, "MCP"): each acts in the
// organisation the request acts in, with the key's scope and the caller's role, exactly as the API
// does; a refusal is the API's message (a 422 with one `<field>: <sentence>` line per field).
import type { Services } from '../services/index.ts';
import type { ActingOrganization } from '../services/organization.service.ts';
import { NotFoundError, ValidationError } from '../services/errors.ts';
import { ForbiddenError, READ_SCOPE_REFUSAL, requireRole, type Action } from '../services/roles.ts';
import { agentReport } from './agent-report.ts';
import { listMeta } from '../http/list-envelope.ts';
import { listChecks } from './list-checks.ts';
import type { ToolHandlers, ToolOutcome } from './tools.ts';

/** Where the tools act: the acting organisation, the key's scope, and this server's origin for links. */
export interface ToolContext {
  organization: ActingOrganization;
  scope: 'read' | 'write';
  origin: string;
}

/** An error a service raised, as the sentence the API would answer; anything else is not ours to word. */
function refusal(error: unknown): string {
  if (error instanceof ValidationError) return `The given data was invalid.\n${error.field}: ${error.message}`;
  if (error instanceof NotFoundError || error instanceof ForbiddenError) return error.message;
  if (error instanceof Error && 'status' in error && typeof error.status === 'number' && error.status < 500) return error.message;
  throw error;
}

async function answered(work: () => Promise<Record<string, unknown>>): Promise<ToolOutcome> {
  try {
    return { content: await work() };
  } catch (error) {
    return { failure: refusal(error) };
  }
}

export function serviceTools(services: Services, context: ToolContext): ToolHandlers {
  const { organization, origin } = context;
  const organizationId = organization.id;
  /** A write: the key's scope first, then the role, as the API judges them. */
  const mayWrite = (action: Action) => {
    if (context.scope === 'read') throw new ForbiddenError(READ_SCOPE_REFUSAL);
    requireRole(organization.role, action);
  };
  const report = (id: number) => services.reports.show(organizationId, id).then((shown) => agentReport(shown, { organization: organizationId, origin }));

  return {
    analyze_url: ({ url, render = false, lab = false }) =>
      answered(async () => {
        mayWrite('create reports');
        const created = await services.reports.create(organizationId, { url, privacy: 0, render, lab: lab ? 'mobile' : undefined });
        return agentReport(created, { organization: organizationId, origin });
      }),
    get_report: ({ id }) => answered(() => report(id)),
    list_reports: ({ search, project, result, per_page: perPage = 100, page = 1 }) =>
      answered(async () => {
        if (page < 1) throw new ValidationError('page', 'The page must be at least 1.');
        const list = await services.lists.reports(organizationId, { search: search || undefined, project, result, sortBy: 'id', sort: 'desc', page, perPage });
        return { data: list.items, meta: listMeta(list, `${origin}/api/v1/reports`) };
      }),
    report_diff: ({ id, from, to }) => answered(async () => ({ ...(await services.runs.diff(organizationId, id, { from, to })) })),
    start_crawl: ({ url, max_pages: maxPages }) =>
      answered(async () => {
        mayWrite('start crawls');
        return { ...(await services.crawls.start(organizationId, { url, maxPages })) };
      }),
    get_crawl: ({ id }) => answered(async () => ({ ...(await services.crawls.show(organizationId, id)) })),
    crawl_issues: ({ id }) => answered(async () => ({ data: await services.crawls.issues(organizationId, id) })),
    list_checks: listChecks,
  };
}
