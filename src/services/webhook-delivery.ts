// The `webhook.deliver` job: one attempt at one delivery, and the next attempt queued when it failed.
// A job may run twice (a process died mid-run), so what the delivery row says decides, not the job:
// an attempt already recorded is never sent again.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { AddressPolicy } from '../fetch/address-guard.ts';
import { postJson, type PostOutcome } from '../fetch/post-json.ts';
import * as webhookRepository from '../repositories/webhook.repository.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { signatureHeaders } from '../security/webhook-signature.ts';

/** A type, not an interface: job payloads must be plain JSON objects (queue/job-queue.ts). */
export type DeliverPayload = {
  deliveryId: string;
  /** 1 for the first attempt */
  attempt: number;
};

export type EnqueueDelivery = (payload: DeliverPayload, options: { delayMs?: number }) => Promise<unknown>;

export interface DeliveryOptions {
  secretBox: () => SecretBox;
  policy: AddressPolicy;
  /** waits before attempts 2, 3, ...; a delivery gets 1 + retryMs.length attempts */
  retryMs: readonly number[];
  timeoutMs: number;
  userAgent: string;
}

export function createDeliverer(db: Kysely<Database>, enqueue: EnqueueDelivery, options: DeliveryOptions) {
  const maxAttempts = 1 + options.retryMs.length;

  function queueNext(deliveryId: string, attempt: number): Promise<unknown> {
    return enqueue({ deliveryId, attempt: attempt + 1 }, { delayMs: options.retryMs[attempt - 1] });
  }

  async function attemptOnce(url: string, secretEncrypted: string, deliveryId: string, body: string): Promise<PostOutcome> {
    let secret: string;
    try {
      secret = options.secretBox().decrypt(secretEncrypted);
    } catch (error) {
      // An operator problem (PAGEGRADE_SECRET_KEY changed): recorded on the delivery where the account
      // sees it, and retried like any failure, in case the key is put back.
      return { status: null, error: error instanceof Error ? error.message : String(error) };
    }
    const headers = { ...signatureHeaders(secret, deliveryId, new Date(), body), 'user-agent': options.userAgent };
    return postJson(url, body, { headers, timeoutMs: options.timeoutMs, policy: options.policy });
  }

  return async function deliver({ deliveryId, attempt }: DeliverPayload): Promise<void> {
    const found = await webhookRepository.findDeliveryWithWebhook(db, deliveryId);
    // The webhook (and with it the delivery) was deleted meanwhile: nobody wants it any more.
    if (!found) return;
    const { delivery, webhook } = found;
    if (delivery.status !== 'pending') return;
    if (delivery.attempts >= attempt) {
      // This attempt was made and recorded, and the run died before the next was queued (or after:
      // then the next one finds its attempt recorded and does nothing).
      if (delivery.attempts === attempt && attempt < maxAttempts) await queueNext(deliveryId, attempt);
      return;
    }
    const outcome = await attemptOnce(webhook.url, webhook.secret_encrypted, deliveryId, delivery.payload);
    const delivered = outcome.error === undefined;
    const status = delivered ? 'delivered' : attempt < maxAttempts ? 'pending' : 'failed';
    const recorded = await webhookRepository.recordAttempt(db, deliveryId, {
      attempt,
      status,
      responseStatus: outcome.status,
      lastError: outcome.error ?? null,
      deliveredAt: delivered ? new Date().toISOString() : null,
    });
    if (recorded && status === 'pending') await queueNext(deliveryId, attempt);
  };
}
