// Progress of a run over several URLs, on stderr so stdout stays the report. On a terminal: one bar
// redrawn in place. Otherwise (CI logs, pipes): one line per finished URL, never a cursor movement.
import type { UrlOutcome } from './url-outcome.ts';
import { printable } from './terminal-text.ts';

export interface Progress {
  finished(outcome: UrlOutcome): void;
  /** Clears the bar, so what follows starts on a clean line. */
  end(): void;
}

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

const BAR_WIDTH = 30;
const CLEAR_LINE = '\r\u001b[2K';

function describe(outcome: UrlOutcome): string {
  if ('error' in outcome) return `not analysed  ${printable(outcome.url)}: ${printable(outcome.error)}`;
  return `${outcome.analysis.score} ${outcome.analysis.result}  ${printable(outcome.url)}`;
}

export function createProgress(stream: Stream, total: number): Progress {
  let done = 0;
  let failed = 0;
  const count = () => `${done}/${total}`;

  if (stream.isTTY !== true) {
    return {
      finished(outcome) {
        done += 1;
        stream.write(`[${count()}] ${describe(outcome)}\n`);
      },
      end() {},
    };
  }

  const draw = () => {
    const filled = Math.round((BAR_WIDTH * done) / total);
    const failures = failed > 0 ? `  ${failed} not analysed` : '';
    stream.write(`${CLEAR_LINE}Analysing [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${count()}${failures}`);
  };
  draw();
  return {
    finished(outcome) {
      done += 1;
      if ('error' in outcome) failed += 1;
      draw();
    },
    end() {
      stream.write(CLEAR_LINE);
    },
  };
}
