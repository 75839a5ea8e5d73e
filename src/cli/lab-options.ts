// --lab, --lab-profile and (crawl) --lab-pages: a lab audit of each page (analyze) or of the pages a
// crawl picks (docs/lab.md). A value out of its range, or a lab option without --lab, is a usage error
// (exit code 2): it would do nothing, and saying so beats a run that silently measured nothing.
import { LAB_PROFILES, type LabProfileName } from '../lab/lab-types.ts';
import { CRAWL_LAB_LIMITS } from '../crawl/crawl-lab-limits.ts';
import { UsageError, type ParsedArgs } from './command.ts';

const DEFAULT_LAB_PROFILE: LabProfileName = 'mobile';

export interface CrawlLab {
  profile: LabProfileName;
  /** at most this many of the crawl's pages get a lab audit: the API's lab_pages, within CRAWL_LAB_LIMITS */
  pages: number;
}

function profileOption(args: ParsedArgs): LabProfileName | undefined {
  const raw = args.values['lab-profile'];
  if (raw === undefined) return undefined;
  if (!LAB_PROFILES.includes(raw as LabProfileName)) {
    throw new UsageError(`--lab-profile must be ${LAB_PROFILES.map((name) => `"${name}"`).join(' or ')}; got "${String(raw)}".`);
  }
  return raw as LabProfileName;
}

function needsLab(args: ParsedArgs, option: string): void {
  if (args.values.lab !== true) throw new UsageError(`--${option} needs --lab: it says how the lab audit is made, and none is made without --lab.`);
}

/**
 * `analyze`: the profile of each page's lab audit; undefined without --lab, or without a config file's
 * `"lab": true` (`labInFile`), which --lab-profile may then qualify as it would --lab.
 */
export function analyzeLabOption(args: ParsedArgs, labInFile = false): LabProfileName | undefined {
  const lab = args.values.lab === true || labInFile;
  const profile = profileOption(args);
  if (profile !== undefined && !lab) needsLab(args, 'lab-profile');
  return lab ? (profile ?? DEFAULT_LAB_PROFILE) : undefined;
}

/** `crawl`: the lab audits' profile and how many pages get one; undefined without --lab. */
export function crawlLabOption(args: ParsedArgs): CrawlLab | undefined {
  const profile = profileOption(args);
  const rawPages = args.values['lab-pages'];
  const { minPages, maxPages, defaultPages } = CRAWL_LAB_LIMITS;
  let pages: number | undefined;
  if (rawPages !== undefined) {
    const value = String(rawPages);
    pages = Number(value);
    if (!/^\d+$/.test(value) || pages < minPages || pages > maxPages) {
      throw new UsageError(`--lab-pages must be a whole number from ${minPages} to ${maxPages}; got "${value}".`);
    }
    needsLab(args, 'lab-pages');
  }
  if (profile !== undefined) needsLab(args, 'lab-profile');
  if (args.values.lab !== true) return undefined;
  return { profile: profile ?? DEFAULT_LAB_PROFILE, pages: pages ?? defaultPages };
}
