// The rows the read benchmark seeds: accounts with API keys, reports of realistic size spread over
// each account's projects, and the project rows tallied from them. Deterministic, so a cached
// database and a fresh one hold the same data.
import { analyzePage } from '../src/analysis/analyze-page.ts';
import type { Verdict } from '../src/analysis/types.ts';
import { DEFAULT_THRESHOLDS } from '../src/checks/thresholds.ts';
import type { ReportInsert } from '../src/repositories/report.repository.ts';
import { corpusFetchedPage, corpusOriginFacts, loadCorpus } from '../test/support/corpus.ts';
import { pick, seededRandom } from './random.ts';

export interface SeedSize {
  reports: number;
  accounts: number;
  projectsPerAccount: number;
  /** the reports' page and results come from this many corpus pages' analyses (all when unset) */
  corpusPages?: number;
}

/**
 * Bump whenever the seeded data or the schema it is seeded into changes, so cached databases are
 * rebuilt (7: reports may wait for their first run, and results live in runs).
 */
export const SEED_VERSION = 7;

/** The term `list with search` looks for: one url in ten has it as its first path segment. */
export const SEARCH_TERM = 'pricing';
const SECTIONS = [SEARCH_TERM, 'blog', 'docs', 'products', 'news', 'about', 'help', 'category', 'articles', 'shop'];
const WORDS = ['coffee', 'mountain', 'guide', 'review', 'best', 'cheap', 'how-to', 'summer', 'garden', 'winter', 'city', 'travel'];
const FIRST_GENERATED_AT = Date.parse('2025-01-01T00:00:00.000Z');
/** A million reports at this spacing span about two years. */
const SPACING_MS = 63_000;

export interface SeedAccount {
  email: string;
  apiKey: string;
  projects: string[];
}

export function seedAccounts(size: SeedSize): SeedAccount[] {
  return Array.from({ length: size.accounts }, (_, account) => ({
    email: `bench-${account}@example.com`,
    apiKey: `pg_benchmark-account-${account}`,
    projects: Array.from({ length: size.projectsPerAccount }, (_, project) => `www.site-${account}-${project}.example`),
  }));
}

interface Sample {
  page: object;
  /** the JSON text a report stores, from a real analysis */
  results: string;
  issues: { high: number; medium: number; low: number };
}

/** One analysis per corpus page: results of real size (median about 12 KB) to reuse across rows. */
function corpusSamples(pages: number | undefined): Sample[] {
  const generatedAt = new Date(FIRST_GENERATED_AT);
  return loadCorpus().slice(0, pages).map((page) => {
    const analysis = analyzePage(corpusFetchedPage(page), corpusOriginFacts(page), DEFAULT_THRESHOLDS, undefined, generatedAt);
    return { page: analysis.page, results: JSON.stringify(analysis.results), issues: analysis.issues };
  });
}

function verdictAndScore(random: () => number): { result: Verdict; score: number } {
  const draw = random();
  if (draw < 0.3) return { result: 'good', score: 80 + Math.floor(random() * 21) };
  if (draw < 0.8) return { result: 'decent', score: 50 + Math.floor(random() * 30) };
  return { result: 'bad', score: 10 + Math.floor(random() * 40) };
}

/**
 * Yields the reports in batches, in creation order: account after account in turn (report i belongs
 * to account i mod accounts), so each account's rows are spread over the whole table as they would be
 * on a live service. `userIds[a]` is the database id of account a.
 */
export function* reportBatches(size: SeedSize, accounts: SeedAccount[], userIds: number[], batchSize: number) {
  const samples = corpusSamples(size.corpusPages);
  const random = seededRandom(SEED_VERSION);
  let batch: ReportInsert[] = [];
  for (let index = 0; index < size.reports; index++) {
    const account = index % size.accounts;
    const project = pick(random, accounts[account].projects);
    const url = `https://${project}/${pick(random, SECTIONS)}/${pick(random, WORDS)}-${pick(random, WORDS)}-${index}`;
    const sample = samples[index % samples.length];
    const at = new Date(FIRST_GENERATED_AT + index * SPACING_MS).toISOString();
    batch.push({
      organization_id: userIds[account],
      url,
      project,
      privacy: random() < 0.9 ? 0 : 1,
      password_hash: null,
      ...verdictAndScore(random),
      issues_high: sample.issues.high,
      issues_medium: sample.issues.medium,
      issues_low: sample.issues.low,
      page: JSON.stringify({ ...sample.page, final_url: url }),
      results: sample.results,
      generated_at: at,
      created_at: at,
      updated_at: at,
    });
    if (batch.length === batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
