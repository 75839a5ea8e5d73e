// The parsing tasks of the analysis pool, run where they are posted to (a pool thread) or, without a
// pool, on the calling thread: the same code either way.
import { parseSitemapBytes } from '../fetch/sitemap-xml.ts';
import { answerRobots, robotsSitemaps } from '../robots/robots-answer.ts';
import type { ParsingResults, ParsingTask } from './analysis-pool.ts';

export function runParsingTask(task: ParsingTask): ParsingResults[ParsingTask['kind']] {
  switch (task.kind) {
    case 'robots':
      return answerRobots(task.question);
    case 'robots-sitemaps':
      return robotsSitemaps(task.text);
    case 'sitemap':
      return parseSitemapBytes(task.bytes, task.charsetLabel);
  }
}
