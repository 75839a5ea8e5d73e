// The Allow and Disallow rules of one robots.txt group, compiled the first time a URL is checked
// against the group and kept beside the parsed file: the checks of one analysis (robots, and
// ai_crawlers for each AI agent) and every URL of a crawl share one compilation. A parsed file is
// never changed afterwards.
import type { RobotsGroup, RobotsRule } from './types.ts';
import { normalisePercentEncoding } from './percent-encoding.ts';
import { compilePattern, type PathMatcher } from './robots-pattern.ts';

export interface RuleMatch {
  rule: RobotsRule;
  /** The pattern's length in the compared spelling: the longest match decides. */
  length: number;
}

interface CompiledRule extends RuleMatch {
  matches: PathMatcher;
}

interface CompiledGroup {
  /** Longest pattern first, Allow before Disallow among equals, else as written: the first match decides. */
  rules: readonly CompiledRule[];
  /** The last path asked about and its answer: many agents of one check often share a group. */
  last: { path: string; match: RuleMatch | null } | null;
}

const compiledGroups = new WeakMap<RobotsGroup, CompiledGroup>();

/**
 * The rule of `group` that decides `path` (normalised by normalisePercentEncoding), or null when none
 * matches: the longest matching pattern, Allow on a tie, the first written among equals. An empty
 * pattern matches nothing.
 */
export function groupDecidingRule(group: RobotsGroup, path: string): RuleMatch | null {
  const compiled = compiledGroups.get(group) ?? compileGroup(group);
  if (compiled.last?.path === path) return compiled.last.match;
  const match = compiled.rules.find((rule) => rule.matches(path)) ?? null;
  compiled.last = { path, match: match && { rule: match.rule, length: match.length } };
  return compiled.last.match;
}

/** Does `candidate` decide over `best` (both matched, from groups that are merged)? */
export function decidesOver(candidate: RuleMatch, best: RuleMatch | null): boolean {
  if (best === null || candidate.length > best.length) return true;
  return candidate.length === best.length && candidate.rule.allow && !best.rule.allow;
}

function compileGroup(group: RobotsGroup): CompiledGroup {
  const seen = new Set<string>();
  const rules: CompiledRule[] = [];
  for (const rule of group.rules) {
    if (rule.pattern === '') continue;
    const pattern = normalisePercentEncoding(rule.pattern);
    // A repeated rule can never decide over its first writing.
    const key = `${rule.allow ? 'A' : 'D'}${pattern}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rules.push({ rule, length: pattern.length, matches: compilePattern(pattern) });
  }
  // Array.prototype.sort is stable, so equal rules stay in the order written.
  rules.sort((a, b) => b.length - a.length || Number(b.rule.allow) - Number(a.rule.allow));
  const compiled: CompiledGroup = { rules, last: null };
  compiledGroups.set(group, compiled);
  return compiled;
}
