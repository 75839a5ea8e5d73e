// Shared by robots and robots_txt_valid: what robots.txt answered, and its parsed form when it exists.
import type { CheckContext } from '../check.ts';
import { parseRobotsTxt } from '../../robots/robots-txt.ts';
import type { RobotsTxt } from '../../robots/types.ts';
import type { AuxResponse } from '../../fetch/types.ts';

export type RobotsTxtState =
  | { kind: 'parsed'; robots: RobotsTxt; statusCode: number }
  /** 4xx (except 429): RFC 9309 treats the file as absent, so everything is allowed. */
  | { kind: 'absent'; statusCode: number }
  /** 5xx, 429, a network error or an unexpected status: the crawler cannot know the rules. */
  | { kind: 'unknown'; reason: string };

export function robotsTxtState({ origin, robots }: CheckContext): RobotsTxtState {
  const { statusCode, error } = origin.robotsTxt;
  if (statusCode === null) return { kind: 'unknown', reason: `robots.txt could not be fetched (${error ?? 'no response'})` };
  if (statusCode >= 200 && statusCode < 300) {
    return { kind: 'parsed', robots: robots ?? parsedOnce(origin.robotsTxt), statusCode };
  }
  // Google treats 429 like a server error, not like a missing file.
  if (statusCode >= 400 && statusCode < 500 && statusCode !== 429) return { kind: 'absent', statusCode };
  return { kind: 'unknown', reason: `robots.txt answered ${statusCode}, so crawlers cannot tell what is allowed` };
}

/**
 * The analysis parses a 200's robots.txt once for every check (CheckContext.robots); another 2xx is
 * parsed here, once per answer, so that the checks asking share one parse and one compilation.
 */
const parsedAnswers = new WeakMap<AuxResponse, RobotsTxt>();

function parsedOnce(answer: AuxResponse): RobotsTxt {
  let robots = parsedAnswers.get(answer);
  if (robots === undefined) {
    robots = parseRobotsTxt(answer.body ?? '');
    parsedAnswers.set(answer, robots);
  }
  return robots;
}
