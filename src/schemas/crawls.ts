// Request and response schemas of /api/v1/crawls (docs/api.md, "Site audits (crawls)").
import { Type } from '@sinclair/typebox';
import { CRAWL_MODES, CRAWL_STATES, CRAWL_TRIGGERS, CRAWL_USER_AGENTS, UNVISITED_REASONS } from '../db/tables/crawl.table.ts';
import { ListEnvelope, ListFormatQuery, ObjectEnvelope, PaginationQuery, Timestamp, oneOf } from './common.ts';
import { lab, labProfile } from './lab.ts';
import { LAB_PROFILES } from '../lab/lab-types.ts';
import { CRAWL_LAB_LIMITS } from '../crawl/crawl-lab-limits.ts';

const RESULTS = ['good', 'decent', 'bad'] as const;
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const crawlSchedule = Type.String({
  maxLength: 200,
  description:
    'off (default) | daily | weekly | monthly | a 5-field cron expression in UTC, at most as often as PAGEGRADE_MIN_SCHEDULE_MINUTES. ' +
    'The crawl runs at once, then on it: each run is a new crawl with the same settings, which the schedule moves to.',
});

export const CrawlIdParams = Type.Object({ id: Type.String({ description: 'The crawl id, a positive integer.' }) });

/**
 * Bounds the body's lists before the service counts them (its 422s say how many are allowed). A form
 * repeats the field or sends one string; with the array coercion a string becomes a list of one.
 */
const scopeList = (description: string) => Type.Array(Type.String({ maxLength: 20_000 }), { maxItems: 100, description });
/** One string may hold the whole list (the body's own limit bounds it first). */
const URLS_INPUT_LENGTH = 20_000_000;
/** 10 headers of a 4,096-character value each, with room for their names. */
const HEADERS_INPUT_LENGTH = 50_000;

export const StartCrawlBody = Type.Object(
  {
    url: Type.Optional(Type.String({
      maxLength: 2048,
      description:
        'The start page: absolute http(s), no credentials. The crawl stays on its host. A private host is refused unless allowed. ' +
        'Optional with urls (list mode), where it must be one of them.',
    })),
    urls: Type.Optional(Type.Array(Type.String({ maxLength: URLS_INPUT_LENGTH }), {
      maxItems: 100_000,
      description:
        'List mode: the URLs to audit, newline- or comma-separated or a list; 1 to max_pages distinct ones on at most 50 hosts, each as url accepts it. ' +
        'Exactly these are fetched and analysed (robots.txt obeyed); their links on the listed hosts are fetched once and judged, not followed. sitemap and max_depth do not apply.',
    })),
    max_pages: Type.Optional(Type.Integer({ description: 'HTML pages to analyse at most: 1 to PAGEGRADE_CRAWL_MAX_PAGES (default 10,000).', default: 100 })),
    max_depth: Type.Optional(Type.Integer({ description: 'Clicks from the start page, 0 to 50.', default: 10 })),
    sitemap: Type.Optional(oneOf([0, 1] as const, { description: '1: also crawl the URLs of the site\'s sitemaps.', default: 1 })),
    privacy: Type.Optional(oneOf([0, 1] as const, { description: 'Privacy of the reports the crawl makes: 0 public, 1 private.', default: 0 })),
    render: Type.Optional(oneOf([0, 1] as const, { description: '1: also load every crawled page in headless Chromium and report what JavaScript changes (each report\'s rendered); a 422 when the server has no browser.', default: 0 })),
    external: Type.Optional(oneOf([0, 1] as const, { description: '1: check every link to another host once (HEAD, then GET); 0: send nothing to other hosts.', default: 1 })),
    include: Type.Optional(scopeList(
      'Up to 20 path patterns, newline- or comma-separated or a list: a URL of the host is fetched only when one matches its path and query ' +
        '(* any run of characters but /, ** any run; each starts with / or *). The start URL must match.',
    )),
    exclude: Type.Optional(scopeList('Up to 20 path patterns as include: a URL matching one is never fetched (unvisited, reason excluded). The start URL must not match.')),
    strip_params: Type.Optional(scopeList(
      'Up to 50 query parameter names, separated by commas, newlines or spaces, or a list (utm_* matches a prefix): removed from every URL of the host before it is crawled.',
    )),
    headers: Type.Optional(Type.Union(
      [
        Type.String({ maxLength: HEADERS_INPUT_LENGTH }),
        Type.Array(Type.String({ maxLength: HEADERS_INPUT_LENGTH }), { maxItems: 100 }),
        Type.Record(Type.String(), Type.String({ maxLength: HEADERS_INPUT_LENGTH }), { maxProperties: 100 }),
      ],
      {
        description:
          'Up to 10 request headers sent to the crawled host only (a Cookie or Authorization for a staging site): Name: value lines, or a JSON object. ' +
          'Stored encrypted; the crawl shows only their names. Host, User-Agent, Accept-Encoding and the hop-by-hop headers are refused.',
      },
    )),
    user_agent: Type.Optional(oneOf(CRAWL_USER_AGENTS, { description: 'The User-Agent sent, and the robots.txt group obeyed (googlebot_*: the googlebot group).', default: 'default' })),
    schedule: Type.Optional(crawlSchedule),
    lab: Type.Optional(oneOf([0, 1] as const, {
      description:
        '1: also make a lab audit (Core Web Vitals, page weight, accessibility: as lab=1 on a report) of up to lab_pages of the crawled HTML pages, ' +
        'chosen to cover the site\'s URL templates (/product/{n}) once every page is in; a 422 when the server has no browser.',
      default: lab.default,
    })),
    lab_pages: Type.Optional(Type.Integer({
      description: `With lab=1: how many pages get a lab audit at most, ${CRAWL_LAB_LIMITS.minPages} to ${CRAWL_LAB_LIMITS.maxPages}; validated whenever sent.`,
      default: CRAWL_LAB_LIMITS.defaultPages,
    })),
    lab_profile: Type.Optional(labProfile),
  },
  { title: 'StartCrawl' },
);

export const UpdateCrawlBody = Type.Object({ schedule: Type.Optional(crawlSchedule) }, { title: 'UpdateCrawl' });

export const CrawlListQuery = Type.Object({
  project: Type.Optional(Type.String({ maxLength: 300, description: 'Only crawls of this project (host).' })),
  state: Type.Optional(oneOf(CRAWL_STATES, { description: 'Only crawls in this state.' })),
  sort_by: Type.Optional(oneOf(['id', 'created_at'] as const, { description: 'Ties break by id.', default: 'id' })),
  sort: PaginationQuery.sort,
  per_page: PaginationQuery.per_page,
  page: PaginationQuery.page,
});

export const CrawlPageListQuery = Type.Object({
  state: Type.Optional(oneOf(['visited', 'unvisited'] as const, {
    description: 'visited: the URLs fetched (any answer, or none); unvisited: found and never fetched, each with its reason.',
    default: 'visited',
  })),
  scope: Type.Optional(oneOf(['internal', 'external'] as const, { description: 'internal: URLs of the crawled host; external: links to other hosts.', default: 'internal' })),
  status: Type.Optional(oneOf(['2xx', '3xx', '4xx', '5xx', 'failed'] as const, { description: 'The first answer\'s status class; failed: unreachable.' })),
  result: Type.Optional(oneOf(RESULTS, { description: 'Only HTML pages analysed with this verdict.' })),
  sort_by: Type.Optional(oneOf(['url', 'depth', 'score', 'inlinks'] as const, { description: 'depth: clicks from the start page; inlinks: internal pages linking to the page.', default: 'url' })),
  sort: Type.Optional(oneOf(['asc', 'desc'] as const, { description: 'Sort direction.', default: 'asc' })),
  per_page: PaginationQuery.per_page,
  page: PaginationQuery.page,
  ...ListFormatQuery,
});

export const CrawlIssuesQuery = Type.Object({ ...ListFormatQuery });

const p75Of = (what: string) => `The 75th percentile (nearest rank) of its pages' ${what}; null when none was measured.`;

const CrawlLabTemplate = Type.Object({
  pattern: Type.String({ description: 'The URL template: the path with every run of digits replaced by {n}, the query dropped (/product/{n}).' }),
  pages: Type.Integer({ minimum: 1, description: 'Its pages whose lab audit succeeded.' }),
  lcp_ms_p75: Nullable(Type.Integer({ minimum: 0, description: p75Of('lcp_ms') })),
  cls_p75: Nullable(Type.Number({ minimum: 0, description: p75Of('cls') })),
  tbt_ms_p75: Nullable(Type.Integer({ minimum: 0, description: p75Of('tbt_ms') })),
  accessibility_score: Nullable(Type.Integer({ minimum: 0, maximum: 100, description: 'The mean of its pages\' accessibility scores, rounded; null when no accessibility rule applied.' })),
});

const CrawlLab = Type.Object(
  {
    profile: oneOf(LAB_PROFILES, { description: 'The lab audits\' profile.' }),
    lab_pages: Type.Integer({ description: 'How many pages get a lab audit at most.' }),
    pages: Type.Integer({ description: 'Pages whose lab audit succeeded so far (each shows `lab` in its report).' }),
    templates: Type.Array(CrawlLabTemplate, { description: 'One per URL template with such a page, in the order of the templates\' first pages (by depth, then URL).' }),
  },
  { description: 'The lab audits of a crawl started with lab=1.' },
);

const Crawl = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    project: Type.String(),
    organization: Type.Integer({ description: 'The organisation that owns it.' }),
    state: oneOf(CRAWL_STATES),
    max_pages: Type.Integer(),
    max_depth: Type.Integer(),
    sitemap: oneOf([0, 1] as const),
    privacy: Type.Integer(),
    render: oneOf([0, 1] as const),
    pages_found: Type.Integer({ description: 'Distinct URLs on the host found so far (robots-disallowed ones excluded).' }),
    pages_crawled: Type.Integer({ description: 'HTML pages analysed (what max_pages caps).' }),
    pages_failed: Type.Integer({ description: 'URLs that could not be fetched.' }),
    requests: Type.Integer({
      description: 'HTTP requests sent to the crawled host so far: robots.txt, its sitemap files, the origin probes, pages, redirects, retries and failed attempts; never more than 2 × max_pages + 50.',
    }),
    limit_reached: Type.Boolean({
      description: 'true: a bound (max_pages, max_depth, the request budget, redirects in a row, the frontier, links per page) left part of the site unvisited or dropped a page\'s links; the site checks judged only the pages visited.',
    }),
    pages_unvisited: Type.Integer({
      description: 'URLs found and never fetched, whatever the reason (pages_found minus the URLs visited); those stored are listed by GET /crawls/{id}/pages?state=unvisited.',
    }),
    score: Nullable(Type.Integer({ description: 'The mean page score; null until done.' })),
    result: Nullable(oneOf(RESULTS)),
    issues: Type.Object({ high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() }, { description: 'The site checks\' findings by importance.' }),
    error: Nullable(Type.String({ description: 'Why the crawl failed.' })),
    created_at: Timestamp,
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
    mode: oneOf(CRAWL_MODES, { description: 'spider: links followed from url; list: exactly the URLs given (urls).' }),
    trigger: oneOf(CRAWL_TRIGGERS, { description: 'create: asked for; schedule: started by a schedule.' }),
    previous_crawl_id: Nullable(Type.Integer({ description: 'A scheduled crawl: the crawl whose schedule started it.' })),
    external: oneOf([0, 1] as const, { description: '1: links to other hosts are checked.' }),
    external_checked: Type.Integer({ description: 'Distinct external URLs checked.' }),
    include: Type.Array(Type.String(), { description: 'Path patterns a URL of the host must match to be fetched (none: every URL).' }),
    exclude: Type.Array(Type.String(), { description: 'Path patterns whose URLs are never fetched.' }),
    strip_params: Type.Array(Type.String(), { description: 'Query parameters removed from every URL of the host (a trailing * matches a prefix).' }),
    header_names: Type.Array(Type.String(), { description: 'Names of the request headers sent to the crawled host (never their values).' }),
    user_agent: oneOf(CRAWL_USER_AGENTS, { description: 'The User-Agent preset, and the robots.txt group obeyed.' }),
    schedule: Type.String({ description: 'off, daily, weekly, monthly or a 5-field cron expression (UTC).' }),
    next_run_at: Nullable(Timestamp),
    lab: Type.Union([CrawlLab, Type.Null()], { description: 'null unless the crawl was started with lab=1.' }),
  },
  { $id: 'Crawl', description: 'A site audit: progress, then the site\'s score and issues.' },
);

const CrawlPage = Type.Object(
  {
    url: Type.String(),
    external: Type.Boolean({ description: 'true: a URL of another host, a link checked rather than crawled.' }),
    status_code: Nullable(Type.Integer({ description: 'The first answer\'s status; null when unreachable or not visited.' })),
    depth: Nullable(Type.Integer({ description: 'Clicks from the start page; null for a URL known only from a sitemap.' })),
    title: Nullable(Type.String()),
    content_type: Nullable(Type.String()),
    report_id: Nullable(Type.Integer()),
    score: Nullable(Type.Integer()),
    result: Nullable(oneOf(RESULTS)),
    inlinks: Type.Integer({ description: 'Internal pages linking to it (known once the crawl is done); 0 for an unvisited URL.' }),
    links_dropped: Type.Integer({ description: 'The page\'s distinct link targets past the first 1,000, ignored (not followed, not judged); 0 for most pages.' }),
    redirect_target: Nullable(Type.String()),
    error: Nullable(Type.String()),
    reason: Nullable(oneOf(UNVISITED_REASONS, {
      description: 'Why an unvisited URL was never fetched: max_pages (the crawl had analysed max_pages pages), max_depth (beyond it), limit (another bound: requests, redirects in a row), excluded, robots; null for a visited URL, or one still waiting while the crawl runs.',
    })),
  },
  { $id: 'CrawlPage' },
);

const CrawlIssue = Type.Object(
  {
    id: Type.String({ description: 'The site check (GET /api/v1/checks, category site).' }),
    importance: oneOf(['high', 'medium', 'low'] as const),
    count: Type.Integer(),
    items: Type.Array(Type.Unknown(), { description: 'The first findings, each naming the pages involved.' }),
  },
  { $id: 'CrawlIssue' },
);

export const CrawlResponse = ObjectEnvelope(Crawl, 200, { title: 'CrawlResponse', description: 'The crawl.' });
export const CrawlQueuedResponse = ObjectEnvelope(Crawl, 202, { title: 'CrawlQueued', description: 'The crawl, stored and queued.' });
export const CrawlListResponse = ListEnvelope(Crawl, { title: 'CrawlList', description: 'A page of the caller\'s crawls.' });
export const CrawlPageListResponse = ListEnvelope(CrawlPage, { title: 'CrawlPageList', description: 'A page of the URLs the crawl visited, or found and never fetched (state=unvisited).' });
export const CrawlIssuesResponse = ObjectEnvelope(Type.Array(CrawlIssue), 200, { title: 'CrawlIssues', description: 'Site issues, by importance; empty until the crawl is done.' });
export const CrawlDeletedResponse = Type.Object(
  { id: Type.Integer(), object: Type.Literal('crawl'), deleted: Type.Literal(true), status: Type.Literal(200) },
  { title: 'CrawlDeleted', description: 'The crawl was cancelled if under way, and is gone with its pages and issues; its reports stay.' },
);
