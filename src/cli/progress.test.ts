import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.ts';
import type { Analysis } from '../analysis/types.ts';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  const writable = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { output: Object.assign(writable, { isTTY }), chunks };
}

const analysed = { url: 'https://example.com/', analysis: { score: 91, result: 'good' } as Analysis };
const failed = { url: 'https://gone.example/\u001b[2J', error: 'The server refused the connection.' };

describe('createProgress', () => {
  it('on a terminal, redraws one bar in place and clears it at the end', () => {
    const { output, chunks } = stream(true);
    const progress = createProgress(output, 2);
    progress.finished(analysed);
    progress.finished(failed);
    progress.end();
    expect(chunks[0]).toBe(`\r\u001b[2KAnalysing [${'-'.repeat(30)}] 0/2`);
    expect(chunks[1]).toBe(`\r\u001b[2KAnalysing [${'#'.repeat(15)}${'-'.repeat(15)}] 1/2`);
    expect(chunks[2]).toBe(`\r\u001b[2KAnalysing [${'#'.repeat(30)}] 2/2  1 not analysed`);
    expect(chunks[3]).toBe('\r\u001b[2K');
    expect(chunks.join('')).not.toContain('\n');
  });

  it('elsewhere, writes one plain line per finished URL', () => {
    const { output, chunks } = stream(false);
    const progress = createProgress(output, 2);
    progress.finished(analysed);
    progress.finished(failed);
    progress.end();
    expect(chunks).toEqual([
      '[1/2] 91 good  https://example.com/\n',
      '[2/2] not analysed  https://gone.example/[2J: The server refused the connection.\n',
    ]);
  });
});
