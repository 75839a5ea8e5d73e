import type { Generated, Selectable } from 'kysely';

/** A job of the embedded queue (src/queue/embedded-queue.ts). Succeeded jobs are deleted. */
export interface JobsTable {
  id: Generated<number>;
  kind: string;
  /** the id its producer chose (JobQueue's jobId), unique; null for jobs given none */
  key: string | null;
  /** JSON */
  payload: string;
  state: 'queued' | 'running' | 'failed';
  /** runs started so far, the one running now included */
  attempts: Generated<number>;
  /** ISO-8601 UTC: a queued job is not taken before then */
  run_at: string;
  /** random per claim: only the run that claimed the job may renew or finish it */
  lease_token: string | null;
  /** a running job whose lease is past this was abandoned (its process died) */
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export type JobRow = Selectable<JobsTable>;
