// The parsed form of a robots.txt file (RFC 9309). Produced by `parseRobotsTxt` in robots-txt.ts.

export interface RobotsRule {
  allow: boolean;
  /** The path pattern as written (may contain `*` and a trailing `$`). */
  pattern: string;
  line: number;
}

export interface RobotsGroup {
  /** User-agent tokens of this group, lower-case. */
  userAgents: string[];
  rules: RobotsRule[];
  /** Crawl-delay in seconds, when the group sets a valid one (a crawler's politeness, not a check's). */
  crawlDelaySeconds?: number;
}

export interface RobotsLineProblem {
  line: number;
  /** The offending line, trimmed and cut to 200 characters. */
  text: string;
  /** A sentence a person can act on: "unknown directive 'Dissallow'". */
  message: string;
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  /** Absolute sitemap URLs listed with `Sitemap:`. */
  sitemaps: string[];
  /** Lines that are not valid robots.txt (robots_txt_valid reports these). */
  problems: RobotsLineProblem[];
}

export interface RobotsVerdict {
  allowed: boolean;
  /** The user-agent group that decided ("googlebot", "*"), or null when no group applied. */
  group: string | null;
  /** The rule that decided, or null when no rule matched (allowed by default). */
  rule: RobotsRule | null;
}
