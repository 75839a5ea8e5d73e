// Where the server's log lines go: readable, coloured lines when a person watches a terminal, one
// JSON object a line otherwise (what log collectors and `| jq` read), as Fastify users expect.
import type { DestinationStream } from 'pino';
import { PinoPretty } from 'pino-pretty';

/** undefined: pino's own JSON lines on stdout. */
export function logDestination(stdoutIsTerminal: boolean): DestinationStream | undefined {
  if (!stdoutIsTerminal) return undefined;
  // sync: a line written just before the process exits (a fatal start error, the shutdown) is not lost.
  return PinoPretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
