// `crawl --budget <file>`: assertions the crawled site must meet, from a JSON file (docs/cli.md,
// "pagegrade crawl"). Every key is optional:
//   {"min_score": 70, "max_issues": {"high": 0, "medium": 5, "low": 50}}
// `max_issues` bounds the findings by importance, as the crawl's `issues` counts them. A broken
// assertion is a failed gate (exit code 1); an unreadable or invalid file is a usage error (exit code
// 2), found before anything is crawled. The same rules and words as analyze's budget (budget.ts).
import type { Importance } from '../checks/check.ts';
import type { Crawl } from '../services/crawl-view.ts';
import { UsageError } from './command.ts';
import { isObject, readJsonOptionFile } from './json-option-file.ts';

export interface CrawlBudget {
  min_score?: number;
  max_issues?: Partial<Record<Importance, number>>;
}

const IMPORTANCES: readonly Importance[] = ['high', 'medium', 'low'];
const KEYS = ['min_score', 'max_issues'];

const isScore = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= 100;
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const shown = (value: unknown) => JSON.stringify(value) ?? String(value);

/** Throws a UsageError naming the first key that is unknown or has a value of the wrong kind. */
export function parseCrawlBudget(value: unknown, invalid: (why: string) => UsageError): CrawlBudget {
  if (!isObject(value)) throw invalid('it is not a JSON object');
  const unknownIn = (object: Record<string, unknown>, known: readonly string[], prefix: string) => {
    const key = Object.keys(object).find((name) => !known.includes(name));
    if (key !== undefined) throw invalid(`unknown key "${prefix}${key}" (known: ${known.join(', ')})`);
  };
  unknownIn(value, KEYS, '');
  const { min_score, max_issues } = value;
  if (min_score !== undefined && !isScore(min_score)) throw invalid(`"min_score" must be a number from 0 to 100; got ${shown(min_score)}`);
  if (max_issues !== undefined) {
    if (!isObject(max_issues)) throw invalid(`"max_issues" must be an object of counts by importance; got ${shown(max_issues)}`);
    unknownIn(max_issues, IMPORTANCES, 'max_issues.');
    for (const [importance, count] of Object.entries(max_issues)) {
      if (!isCount(count)) throw invalid(`"max_issues.${importance}" must be a whole number from 0; got ${shown(count)}`);
    }
  }
  return value as CrawlBudget;
}

export async function readCrawlBudget(path: string): Promise<CrawlBudget> {
  const value = await readJsonOptionFile('--budget', path);
  return parseCrawlBudget(value, (why) => new UsageError(`--budget ${path} is not a valid budget: ${why}.`));
}

/** One line per broken assertion: the assertion, its limit and the crawl's value. Judged on a crawl that is done. */
export function checkCrawlBudget(crawl: Crawl, budget: CrawlBudget): string[] {
  const broken: string[] = [];
  if (budget.min_score !== undefined && crawl.score !== null && crawl.score < budget.min_score) {
    broken.push(`--budget min_score ${budget.min_score}: the site scored ${crawl.score}.`);
  }
  for (const importance of IMPORTANCES) {
    const limit = budget.max_issues?.[importance];
    const found = crawl.issues[importance];
    if (limit !== undefined && found > limit) {
      broken.push(`--budget max_issues.${importance} ${limit}: the crawl found ${found} ${importance}-importance site issue${found === 1 ? '' : 's'}.`);
    }
  }
  return broken;
}
