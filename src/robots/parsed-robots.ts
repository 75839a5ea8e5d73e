// A robots.txt parsed once per thread and text: a crawl asks about its file for every page and every
// list of URLs, and a 500 KiB file of wildcard rules takes tens of milliseconds to parse and compile
// (group-rules.ts keeps the compiled rules beside the parsed file, so they are shared too). Keyed by
// the text itself: comparing two strings costs less than hashing one, and nobody has to carry a key.
import { parseRobotsTxt } from './robots-txt.ts';
import type { RobotsTxt } from './types.ts';

/** A few crawls run at once per process; each has one robots.txt. */
const MAX_FILES = 4;

/** Most recently used last. */
const files: { text: string; robots: RobotsTxt }[] = [];

export function parsedRobotsTxt(text: string): RobotsTxt {
  const index = files.findIndex((file) => file.text.length === text.length && file.text === text);
  if (index !== -1) {
    const [file] = files.splice(index, 1);
    files.push(file);
    return file.robots;
  }
  const robots = parseRobotsTxt(text);
  files.push({ text, robots });
  if (files.length > MAX_FILES) files.shift();
  return robots;
}
