// Bounds how many analyses run at once, per account and overall. An analysis holds a socket, a
// parser and a few MB for seconds; without a bound one client could queue thousands of them.
// A full slot table answers at once (429 for one account, 503 for the whole server) with a
// Retry-After, rather than queueing work the client may have given up on.

export class TooManyAnalysesError extends Error {
  readonly retryAfterSeconds: number;
  /** 429 when this account is at its limit, 503 when the whole server is. */
  readonly status: 429 | 503;
  constructor(status: 429 | 503, message: string, retryAfterSeconds: number) {
    super(message);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface AnalysisSlots {
  run<T>(accountId: number, work: () => Promise<T>): Promise<T>;
  /** Analyses in flight, overall (for tests and diagnostics). */
  inFlight(): number;
}

export function createAnalysisSlots(limits: { perAccount: number; overall: number; retryAfterSeconds: number }): AnalysisSlots {
  const perAccount = new Map<number, number>();
  let overall = 0;
  return {
    inFlight: () => overall,
    async run(accountId, work) {
      const mine = perAccount.get(accountId) ?? 0;
      if (mine >= limits.perAccount) {
        throw new TooManyAnalysesError(
          429,
          `This account already has ${mine} analyses running (the limit is ${limits.perAccount}); wait for one to finish.`,
          limits.retryAfterSeconds,
        );
      }
      if (overall >= limits.overall) {
        throw new TooManyAnalysesError(
          503,
          `The server is running its maximum of ${limits.overall} analyses; try again shortly.`,
          limits.retryAfterSeconds,
        );
      }
      perAccount.set(accountId, mine + 1);
      overall += 1;
      try {
        return await work();
      } finally {
        overall -= 1;
        const left = (perAccount.get(accountId) ?? 1) - 1;
        if (left === 0) perAccount.delete(accountId);
        else perAccount.set(accountId, left);
      }
    },
  };
}
