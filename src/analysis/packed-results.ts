// How a run's check results are kept: JSON, deflated and base64-encoded behind a `z:` prefix. The
// results are ten times the rest of a run (about 10 KB of JSON a page, 2.5 KB deflated), and a crawl of
// a million pages stores a million runs; packing them on the analysis thread, where they are made,
// costs the main thread nothing and keeps the database at a third of the size (docs/architecture.md,
// "Storage"). Runs stored before packing hold plain JSON, which never starts with `z`: one reader
// takes both.
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { CheckResult } from './types.ts';

const PACKED = 'z:';

export function packResults(results: Record<string, CheckResult>): string {
  return PACKED + deflateRawSync(JSON.stringify(results)).toString('base64');
}

export function unpackResults(stored: string): Record<string, CheckResult> {
  const json = stored.startsWith(PACKED) ? inflateRawSync(Buffer.from(stored.slice(PACKED.length), 'base64')).toString('utf8') : stored;
  return JSON.parse(json) as Record<string, CheckResult>;
}
