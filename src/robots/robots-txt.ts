// robots.txt as RFC 9309 reads it, with the leniencies Googlebot shows (google/robotstxt): a missing
// colon and a few frequent misspellings are still obeyed, and flagged for robots_txt_valid.
import type { RobotsGroup, RobotsLineProblem, RobotsRule, RobotsTxt, RobotsVerdict } from './types.ts';

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
const MAX_BYTES = 500 * 1024;
const MAX_PROBLEMS = 50;
const MAX_PROBLEM_TEXT = 200;

export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  const problems: RobotsLineProblem[] = [];
  let group: RobotsGroup | null = null;
  let lastWasUserAgent = false;

  const lines = withinSizeLimit(text).replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index++) {
    const rawLine = lines[index];
    const line = index + 1;
    const report = (message: string) => {
      if (problems.length < MAX_PROBLEMS) {
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
        groups.push(group);
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
      else group.rules.push({ allow: directive === 'allow', pattern: value, line });
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
  const rule = decidingRule(applying.groups.flatMap((g) => g.rules), target.pathname + target.search);
  return { allowed: rule === null || rule.allow, group: applying.agent, rule };
}

/** The groups that speak to a crawler known by `userAgents`: the first agent with a group, else `*`'s. */
function groupsFor(robots: RobotsTxt, userAgents: readonly string[]): { agent: string; groups: RobotsGroup[] } | null {
  for (const agent of [...userAgents.map((ua) => ua.toLowerCase()), '*']) {
    const groups = robots.groups.filter((g) => g.userAgents.includes(agent));
    if (groups.length > 0) return { agent, groups };
  }
  return null;
}

/**
 * The Crawl-delay (seconds) of the group that applies to a crawler known by `userAgents` (as in
 * evaluateRobots), or null when that group sets none.
 */
export function crawlDelaySeconds(robots: RobotsTxt, userAgents: readonly string[]): number | null {
  const delays = (groupsFor(robots, userAgents)?.groups ?? []).flatMap((g) => (g.crawlDelaySeconds === undefined ? [] : [g.crawlDelaySeconds]));
  return delays.length === 0 ? null : Math.max(...delays);
}

/** The longest matching pattern wins; Allow wins a tie. An empty pattern matches nothing. */
function decidingRule(rules: readonly RobotsRule[], path: string): RobotsRule | null {
  const normalisedPath = normalisePercentEncoding(path);
  let best: RobotsRule | null = null;
  let bestLength = -1;
  for (const rule of rules) {
    if (rule.pattern === '') continue;
    const pattern = normalisePercentEncoding(rule.pattern);
    if (!patternMatches(normalisedPath, pattern)) continue;
    if (pattern.length > bestLength || (pattern.length === bestLength && rule.allow && !best?.allow)) {
      best = rule;
      bestLength = pattern.length;
    }
  }
  return best;
}

/**
 * Pattern anchored at the start of the path; `*` matches any run of characters and a final `$` the end.
 * Tracks every path position the pattern prefix can reach, so hostile patterns stay linear per character.
 */
function patternMatches(path: string, pattern: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  let positions = [0];
  for (const ch of body) {
    if (ch === '*') {
      const from = positions[0];
      positions = Array.from({ length: path.length - from + 1 }, (_, k) => from + k);
      continue;
    }
    positions = positions.filter((p) => p < path.length && path[p] === ch).map((p) => p + 1);
    if (positions.length === 0) return false;
  }
  return anchored ? positions[positions.length - 1] === path.length : true;
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
// Characters URL serialisers percent-encode inconsistently (WHATWG encodes ' only in queries, for one):
// encoding them on both sides makes the comparison independent of who wrote the URL.
const ALWAYS_ENCODED = /^[\s"'<>\\^`{|}\x00-\x1f\x7f]$/;

/**
 * One spelling for pattern and path (RFC 9309 section 2.2.2): `%xx` of an unreserved character is
 * decoded, other escapes are upper-cased, non-ASCII and unsafe characters are UTF-8 percent-encoded.
 */
function normalisePercentEncoding(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '%' && /^[0-9a-f]{2}$/i.test(hex)) {
      const decoded = String.fromCharCode(parseInt(hex, 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
      i += 3;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    out += ch.codePointAt(0)! > 0x7e || ALWAYS_ENCODED.test(ch) ? percentEncode(ch) : ch;
    i += ch.length;
  }
  return out;
}

function percentEncode(ch: string): string {
  try {
    return encodeURIComponent(ch);
  } catch {
    return '%EF%BF%BD'; // a lone surrogate: encode as U+FFFD like a UTF-8 encoder would
  }
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
  if (text.length * 3 <= MAX_BYTES || Buffer.byteLength(text, 'utf8') <= MAX_BYTES) return text;
  return Buffer.from(text, 'utf8').subarray(0, MAX_BYTES).toString('utf8');
}
