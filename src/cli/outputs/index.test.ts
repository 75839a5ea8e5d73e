import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandArgs, UsageError } from '../command.ts';
import { analyze } from '../commands/analyze.ts';
import { readOutputFiles } from './index.ts';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'pagegrade-output-files-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const outputFiles = (...argv: string[]) => readOutputFiles(parseCommandArgs(analyze, ['https://example.com/', ...argv]));

describe('readOutputFiles', () => {
  it('takes the format from the name, or from the --format right before the --output', async () => {
    const names = ['a.json', 'b.HTML', 'c.junit.xml', 'd.xml', 'e.sarif', 'f.sarif.json', 'g.txt', 'h.json'];
    const files = await outputFiles(
      ...names.slice(0, 6).flatMap((name) => ['--output', join(directory, name)]),
      '--format', 'junit', '--output', join(directory, names[6]), '--json', '--output', join(directory, names[7]),
    );
    expect(files).toEqual(
      [['a.json', 'json'], ['b.HTML', 'html'], ['c.junit.xml', 'junit'], ['d.xml', 'junit'], ['e.sarif', 'sarif'], ['f.sarif.json', 'sarif'], ['g.txt', 'junit'], ['h.json', 'json']].map(
        ([name, format]) => ({ path: join(directory, name), format }),
      ),
    );
    expect(await outputFiles()).toEqual([]);
    expect(await outputFiles('--output', 'relative.json')).toEqual([{ path: resolve('relative.json'), format: 'json' }]);
  });

  it.each([
    [['--output', 'report.txt'], '--output report.txt: cannot tell the format from the name; end it in .json, .html, .junit.xml, .xml, .sarif or .sarif.json, or put --format json|html|junit|sarif before it.'],
    [['--format', 'pdf', '--output', 'report.pdf'], '--format must be json, html, junit or sarif; got "pdf".'],
    [['--output', 'a.json', '--format', 'sarif'], '--format sarif is not followed by the --output it applies to.'],
    [['--format', 'json', '--format', 'html', '--output', 'a.out'], '--format json is not followed by the --output it applies to.'],
    [['--output', '/nonexistent-directory/report.json'], 'Cannot write --output /nonexistent-directory/report.json: /nonexistent-directory is not a directory.'],
    [['--format', 'json', '--output', '/tmp'], 'Cannot write --output /tmp: it is a directory.'],
    [['--output', 'same.json', '--format', 'json', '--output', './same.json'], '--output ./same.json is given twice.'],
    [['--output', ''], '--output needs a file name.'],
  ])('%j is a usage error', async (argv, message) => {
    await expect(outputFiles(...argv)).rejects.toStrictEqual(new UsageError(message));
  });
});
