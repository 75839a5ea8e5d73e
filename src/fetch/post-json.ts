// One webhook attempt: POST a JSON body to a URL the account chose, through the same guarded agent
// as page fetches, so the private-address guard checks the address actually connected to, on every
// attempt (a DNS name that turned private since registration is refused). Redirects are never
// followed: a receiver answers where it was registered, and following one would let a public URL
// bounce the signed body to a private one.
import { request } from 'undici';
import type { AddressPolicy } from './address-guard.ts';
import { agentFor } from './agents.ts';

const DISCARDED_BODY_BYTES = 64 * 1024;
/** The receiver chooses its Location header; the delivery's error keeps enough to recognise it. */
const MAX_LOCATION_SHOWN = 300;

export interface PostOutcome {
  /** the receiver's status, when it answered at all */
  status: number | null;
  /** why the attempt did not count as delivered; undefined for a 2xx */
  error?: string;
}

export interface PostJsonOptions {
  headers: Record<string, string>;
  timeoutMs: number;
  policy: AddressPolicy;
}

/** Sends `body`; never throws for what the receiver or the network did (that is the outcome). */
export async function postJson(url: string, body: string, options: PostJsonOptions): Promise<PostOutcome> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher: agentFor(options.policy),
      headers: { ...options.headers, 'content-type': 'application/json' },
      body,
      signal,
    });
    // The answer's body means nothing to us: up to this much is read so the connection can be reused,
    // then it is closed.
    await response.body.dump({ limit: DISCARDED_BODY_BYTES, signal });
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { status };
    const location = String(response.headers.location ?? 'none').slice(0, MAX_LOCATION_SHOWN);
    const redirect = status >= 300 && status < 400 ? `; redirects are not followed (location: ${location})` : '';
    return { status, error: `The receiver answered HTTP ${status}${redirect}.` };
  } catch (error) {
    if (signal.aborted) return { status: null, error: `The receiver did not answer within ${options.timeoutMs} ms.` };
    return { status: null, error: describeFailure(error) };
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici wraps connection failures; the cause says what happened (refused, DNS, guard).
  const cause = error.cause instanceof Error ? error.cause : undefined;
  return cause ? `${error.message}: ${cause.message}` : error.message;
}
