// One queue interface, two engines (docs/architecture.md): jobs as database rows run by the
// server itself (embedded-queue.ts), or BullMQ on Redis for many workers on many machines
// (bullmq-queue.ts). Handlers are plain async functions over a payload; they never know which engine
// runs them, and a handler may run again after a crash, so it must be safe to repeat.

/** What a payload may hold: it is stored as JSON (a database row, a Redis hash). */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
type JobPayload = { [key: string]: JsonValue };

/** The payload of each job kind, e.g. `{ 'report.analyse': { reportId: number } }`. */
export type JobKinds = Record<string, JobPayload>;

export type JobHandlers<Kinds extends JobKinds> = { [Kind in keyof Kinds]: (payload: Kinds[Kind]) => Promise<void> };

interface EnqueueOptions {
  /** Run no sooner than this many milliseconds from now (a webhook's next attempt). */
  delayMs?: number;
  /**
   * The job's id, chosen by the caller so that adding it again is harmless: while the queue holds a
   * job of that id (waiting, delayed or running) nothing is added, and a job of that id that failed
   * for good is replaced. Without one the queue makes a new id. Not a number (BullMQ's rule).
   */
  jobId?: string;
}

/**
 * Kinds that run in a lane of their own: at most `concurrency` of them at once per process, beside
 * the process's slots and never in one (webhook deliveries, which mostly wait on the network, do not
 * hold up analyses). On BullMQ a lane is a queue of its own, named `<queue name>-<lane name>`.
 */
export interface SideLane {
  name: string;
  kinds: readonly string[];
  concurrency: number;
}

/**
 * What to do when a job of a kind is given up for good (its last run threw, or its process died on
 * it each time): called once per such job, by the process that gave it up, with the last error.
 */
export type GiveUpHandlers<Kinds extends JobKinds> = {
  [Kind in keyof Kinds]?: (payload: Kinds[Kind], error: string) => Promise<void>;
};

interface StartOptions<Kinds extends JobKinds> {
  /** Jobs this process runs at once (at least 1), side lanes' kinds apart. */
  concurrency: number;
  onGiveUp?: GiveUpHandlers<Kinds>;
}

export interface JobQueue<Kinds extends JobKinds> {
  /** Stores the job for some worker to run; resolves with its id once it is safely stored. */
  enqueue<Kind extends keyof Kinds & string>(kind: Kind, payload: Kinds[Kind], options?: EnqueueOptions): Promise<string>;
  /**
   * Which of these job ids (EnqueueOptions.jobId) the queue holds: waiting, delayed, or running in a
   * process that is alive (as far as the queue can tell). Throws when the queue cannot be asked.
   */
  holds(jobIds: readonly string[]): Promise<Set<string>>;
  /** Runs this process's share of the jobs with these handlers until close(); at most once per queue. */
  start(handlers: JobHandlers<Kinds>, options: StartOptions<Kinds>): void;
  /** Takes no more jobs, waits for the running ones to finish, and lets go of connections. */
  close(): Promise<void>;
}

/**
 * Runs a job gets before it is failed for good: a run that throws, and on the embedded engine a run
 * whose process died, each count one.
 */
export const MAX_ATTEMPTS = 3;

/** Where a queue reports what no caller is waiting for: a failed run, a lost lease, a dropped connection. */
export type QueueErrorReporter = (error: unknown, context: { kind?: string; jobId?: string; message: string }) => void;

/** Runs a kind's give-up handler, if it has one; what it throws goes to the reporter. */
export async function giveUp<Kinds extends JobKinds>(
  handlers: GiveUpHandlers<Kinds> | undefined,
  job: { kind: string; payload: unknown; id: string; error: string },
  report: QueueErrorReporter,
): Promise<void> {
  const handler = handlers?.[job.kind as keyof Kinds];
  if (handler === undefined) return;
  try {
    await handler(job.payload as Kinds[keyof Kinds], job.error);
  } catch (error) {
    report(error, { kind: job.kind, jobId: job.id, message: 'could not record that a job was given up' });
  }
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
