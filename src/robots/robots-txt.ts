// robots.txt as RFC 9309 reads it, with the leniencies Googlebot shows (google/robotstxt): a missing
// colon and a few frequent misspellings are still obeyed, and flagged for robots_txt_valid.
// Reading and matching are bounded whatever the file holds (docs/checks.md, "robots.txt limits").
import type { RobotsGroup, RobotsLineProblem, RobotsTxt, RobotsVerdict } from './types.ts';
import { normalisePercentEncoding } from './percent-encoding.ts';
import { decidesOver, groupDecidingRule, type RuleMatch } from './group-rules.ts';

const KNOWN_DIRECTIVES = new Set([
  'user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'clean-param', 'host', 'request-rate',
  'visit-time', 'noindex', 'content-signal',
]);

/** Misspellings Googlebot obeys anyway, mapped to what it reads them as. */
const OBEYED_MISSPELLINGS: Record<string, string> = {
  useragent: 'user-agent',
  'user agent': 'user-agent',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  diasllow: 'disallow',
  disallaw: 'disallow',
  'site-map': 'sitemap',
};

// Google ignores everything after the first 500 KiB (RFC 9309 asks parsers to read at least that).
export const MAX_ROBOTS_BYTES = 500 * 1024;
// Every URL checked is matched against each rule of its group, so the rules are counted too: these
// are far above what sites write, and keep one URL's check to milliseconds.
export const MAX_ROBOTS_RULES = 10_000;
export const MAX_ROBOTS_GROUPS = 1_000;
const MAX_PROBLEMS = 50;
const MAX_PROBLEM_TEXT = 200;

export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  const problems: RobotsLineProblem[] = [];
  let group: RobotsGroup | null = null;
  /** False for a group past MAX_ROBOTS_GROUPS: it is read, so its lines are not misread, and then dropped. */
  let groupKept = true;
  let ruleCount = 0;
  let groupsCapped = false;
  let rulesCapped = false;
  let lastWasUserAgent = false;

  const lines = withinSizeLimit(text).replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    const rawLine = lines[index];
    const line = index + 1;
    const report = (message: string, always = false) => {
      if (problems.length < MAX_PROBLEMS || always) {
        problems.push({ line, text: rawLine.trim().slice(0, MAX_PROBLEM_TEXT), message });
      }
    };
    const content = stripComment(rawLine).trim();
    if (content === '') continue;

    const pair = splitDirective(content);
    if (pair === null) {
      report(content.startsWith(':') ? "missing directive name before ':'" : "missing ':' between the directive and its value");
      continue;
    }
    if (!pair.hasColon) report("missing ':' between the directive and its value (Googlebot still reads it)");

    const written = pair.name.toLowerCase();
    const directive = KNOWN_DIRECTIVES.has(written) ? written : OBEYED_MISSPELLINGS[written];
    if (directive === undefined) report(`unknown directive '${pair.name}'`);
    else if (directive !== written) {
      report(`unknown directive '${pair.name}' (Googlebot reads it as '${directive}', other crawlers ignore it)`);
    }

    const value = pair.value;
    if (directive === 'user-agent') {
      // Consecutive user-agent lines share one group; a user-agent after any other line starts a new one.
      if (group === null || !lastWasUserAgent) {
        group = { userAgents: [], rules: [] };
        groupKept = groups.length < MAX_ROBOTS_GROUPS;
        if (groupKept) groups.push(group);
        else if (!groupsCapped) {
          groupsCapped = true;
          report(`more than ${MAX_ROBOTS_GROUPS} user-agent groups: this group and later ones are ignored`, true);
        }
      }
      const token = productToken(value);
      if (token !== null) group.userAgents.push(token);
      lastWasUserAgent = true;
      continue;
    }
    lastWasUserAgent = false;

    if (directive === 'allow' || directive === 'disallow') {
      if (value !== '' && !value.startsWith('/') && !value.startsWith('*')) report("a path pattern must start with '/' or '*'");
      const dollar = value.indexOf('$');
      if (dollar !== -1 && dollar !== value.length - 1) report("'$' only means end of URL as the last character");
      if (group === null) report('rule before the first user-agent line (ignored)');
      else if (groupKept && ruleCount < MAX_ROBOTS_RULES) {
        group.rules.push({ allow: directive === 'allow', pattern: value, line });
        ruleCount += 1;
      } else if (groupKept && !rulesCapped) {
        rulesCapped = true;
        report(`more than ${MAX_ROBOTS_RULES} allow and disallow rules: this rule and later ones are ignored`, true);
      }
    } else if (directive === 'sitemap') {
      if (isAbsoluteSitemapUrl(value)) sitemaps.push(value);
      else report('sitemap must be an absolute http(s) or ftp URL');
    } else if (directive === 'crawl-delay') {
      if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value)) report('crawl-delay must be a number of seconds');
      else if (group !== null) group.crawlDelaySeconds = Number(value);
    }
  }

  return { groups, sitemaps, problems };
}

/**
 * May a crawler known by `userAgents` (most specific first, e.g. ['googlebot']) fetch `url`?
 * The first agent with a group decides, else the `*` group; all groups naming that agent are merged.
 */
export function evaluateRobots(robots: RobotsTxt, url: string, userAgents: readonly string[]): RobotsVerdict {
  if (!URL.canParse(url)) return { allowed: true, group: null, rule: null };
  const target = new URL(url);
  if (target.pathname === '/robots.txt') return { allowed: true, group: null, rule: null };
  const applying = groupsFor(robots, userAgents);
  if (applying === null) return { allowed: true, group: null, rule: null };
  const path = normalisePercentEncoding(target.pathname + target.search);
  let best: RuleMatch | null = null;
  for (const group of applying.groups) {
    const match = groupDecidingRule(group, path);
    if (match !== null && decidesOver(match, best)) best = match;
  }
  const rule = best?.rule ?? null;
  return { allowed: rule === null || rule.allow, group: applying.agent, rule };
}

/** Each user-agent token's groups, in file order: built once per parsed file. */
const groupsByAgent = new WeakMap<RobotsTxt, Map<string, RobotsGroup[]>>();

/** The groups that speak to a crawler known by `userAgents`: the first agent with a group, else `*`'s. */
function groupsFor(robots: RobotsTxt, userAgents: readonly string[]): { agent: string; groups: RobotsGroup[] } | null {
  const index = groupsByAgent.get(robots) ?? indexGroups(robots);
  for (const agent of [...userAgents.map((ua) => ua.toLowerCase()), '*']) {
    const groups = index.get(agent);
    if (groups !== undefined) return { agent, groups };
  }
  return null;
}

function indexGroups(robots: RobotsTxt): Map<string, RobotsGroup[]> {
  const index = new Map<string, RobotsGroup[]>();
  for (const group of robots.groups) {
    for (const agent of new Set(group.userAgents)) {
      const groups = index.get(agent);
      if (groups === undefined) index.set(agent, [group]);
      else groups.push(group);
    }
  }
  groupsByAgent.set(robots, index);
  return index;
}

/**
 * The Crawl-delay (seconds) of the group that applies to a crawler known by `userAgents` (as in
 * evaluateRobots), or null when that group sets none.
 */
export function crawlDelaySeconds(robots: RobotsTxt, userAgents: readonly string[]): number | null {
  const delays = (groupsFor(robots, userAgents)?.groups ?? []).flatMap((g) => (g.crawlDelaySeconds === undefined ? [] : [g.crawlDelaySeconds]));
  return delays.length === 0 ? null : Math.max(...delays);
}

/** The crawler name a user-agent line applies to: `*`, or the leading [a-zA-Z_-] run, lower-case. */
export function productToken(value: string): string | null {
  if (/^\*(\s|$)/.test(value)) return '*';
  const match = /^[a-z_-]+/i.exec(value);
  return match ? match[0].toLowerCase() : null;
}

/** `name: value`; Googlebot also accepts `name value` when the line has exactly two words. */
function splitDirective(content: string): { name: string; value: string; hasColon: boolean } | null {
  const colon = content.indexOf(':');
  if (colon !== -1) {
    const name = content.slice(0, colon).trim();
    return name === '' ? null : { name, value: content.slice(colon + 1).trim(), hasColon: true };
  }
  const words = content.split(/[ \t]+/);
  return words.length === 2 ? { name: words[0], value: words[1], hasColon: false } : null;
}

function stripComment(line: string): string {
  const hash = line.indexOf('#');
  return hash === -1 ? line : line.slice(0, hash);
}

function isAbsoluteSitemapUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  return ['http:', 'https:', 'ftp:'].includes(new URL(value).protocol);
}

function withinSizeLimit(text: string): string {
  if (text.length * 3 <= MAX_ROBOTS_BYTES || Buffer.byteLength(text, 'utf8') <= MAX_ROBOTS_BYTES) return text;
  return Buffer.from(text, 'utf8').subarray(0, MAX_ROBOTS_BYTES).toString('utf8');
}
