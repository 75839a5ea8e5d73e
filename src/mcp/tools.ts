// pagegrade's MCP tools (docs/api.md, "MCP server"): each one's name, description, arguments and whether
// it only reads. The definitions are the same everywhere; what runs them is not: `pagegrade mcp` answers
// analyze_url and list_checks in-process, the HTTP server all eight against its services. Arguments are
// zod shapes because the SDK takes them so: it publishes them as each tool's JSON Schema inputSchema
// and refuses a call that breaks them with a message naming the argument.
import * as z from 'zod';

const reportId = z.int().describe('The report\'s id, as analyze_url or list_reports give it.');
const crawlId = z.int().describe('The crawl\'s id, as start_crawl gives it.');

export const toolDefinitions = {
  analyze_url: {
    description:
      'Analyse one web page now: fetch it, run pagegrade\'s SEO, performance, security and accessibility checks, and score it ' +
      '0-100 with a verdict (good, decent or bad). Answers the agent report: the score, the verdict, how many checks failed by ' +
      'importance, and every failed check (high importance first) with what it measured (value) and the offending items (errors).',
    inputSchema: {
      url: z.string().describe('The page to analyse: an absolute http:// or https:// URL.'),
      render: z.boolean().optional().describe('Also load the page in headless Chromium and judge what JavaScript changes.'),
      lab: z.boolean().optional().describe('Also make a lab audit in headless Chromium: Core Web Vitals, page weight and accessibility rules.'),
    },
    readOnly: false,
  },
  get_report: {
    description: 'The agent report of a stored report: its latest score, verdict and failed checks.',
    inputSchema: { id: reportId },
    readOnly: true,
  },
  list_reports: {
    description: 'List stored reports, newest first, a page at a time: each one\'s id, url, project, score and verdict.',
    inputSchema: {
      search: z.string().optional().describe('Only reports whose url contains this, ignoring case.'),
      project: z.string().optional().describe('Only reports of this project (by default a report\'s project is its host).'),
      result: z.enum(['good', 'decent', 'bad']).optional().describe('Only reports with this verdict.'),
      per_page: z.literal([10, 25, 50, 100]).optional().describe('Reports a page (default 100).'),
      page: z.int().optional().describe('The page, from 1.'),
    },
    readOnly: true,
  },
  report_diff: {
    description: 'What changed between two runs of a report: score, verdict, checks newly failing and fixed.',
    inputSchema: {
      id: reportId,
      from: z.int().optional().describe('The older run\'s id; by default the run before `to`.'),
      to: z.int().optional().describe('The newer run\'s id; by default the latest run.'),
    },
    readOnly: true,
  },
  start_crawl: {
    description: 'Start auditing a whole site from a URL: the crawl is queued and runs in the background; get_crawl follows it.',
    inputSchema: {
      url: z.string().describe('Where the crawl starts: an absolute http:// or https:// URL.'),
      max_pages: z.int().optional().describe('HTML pages to analyse at most (default 100).'),
    },
    readOnly: false,
  },
  get_crawl: {
    description: 'A crawl: its state (queued, running, done, failed), its progress and, once done, its site score.',
    inputSchema: { id: crawlId },
    readOnly: true,
  },
  crawl_issues: {
    description: 'The site issues of a finished crawl, by importance: each site check that failed, how often, and its first findings with the pages involved.',
    inputSchema: { id: crawlId },
    readOnly: true,
  },
  list_checks: {
    description: 'Every check pagegrade runs: its id (the key in a report\'s failed checks), what it means and how to fix a failure.',
    inputSchema: {},
    readOnly: true,
  },
} as const;

export type ToolName = keyof typeof toolDefinitions;

type ToolArguments<Name extends ToolName> = z.infer<z.ZodObject<(typeof toolDefinitions)[Name]['inputSchema']>>;

/** What a tool's handler answers: the result's structured content, or the sentence that says why it failed. */
export type ToolOutcome = { content: Record<string, unknown> } | { failure: string };

/** One function per tool; a server registers those it has. */
export type ToolHandlers = { [Name in ToolName]: (args: ToolArguments<Name>) => Promise<ToolOutcome> };
