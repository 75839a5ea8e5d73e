// Webhooks (docs/api.md, "Webhook deliveries"): an account registers URLs for events; notify stores one
// delivery per subscribed webhook and queues it; the `webhook.deliver` job sends it, signed, and
// retries (webhook-delivery.ts).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { parseTargetUrl } from '../analysis/target-url.ts';
import { addressPolicy } from '../fetch/address-guard.ts';
import { hostRefusal } from '../fetch/host-check.ts';
import * as webhookRepository from '../repositories/webhook.repository.ts';
import { createSecretBox, type SecretBox } from '../security/secret-box.ts';
import { generateWebhookSecret } from '../security/webhook-signature.ts';
import { NotFoundError, ValidationError } from './errors.ts';
import { createDeliverer, type EnqueueDelivery } from './webhook-delivery.ts';
import { parseWebhookEvents, type WebhookEvent } from './webhook-events.ts';
import { toWebhook, type CreatedWebhook, type Webhook } from './webhook-view.ts';

/** Enough for every environment and tool an account might feed; more is more likely a loop in a script. */
const MAX_WEBHOOKS_PER_ACCOUNT = 20;
/** Standard Webhooks' recommendation: a receiver that takes longer is treated as down. */
const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookServiceOptions {
  /** PAGEGRADE_SECRET_KEY, or a function that resolves it when first needed (security/secret-key.ts). */
  secretKey: string | (() => string);
  allowPrivateUrls: boolean;
  publicAddressesForTests?: string[];
  /** PAGEGRADE_ALLOWED_ADDRESSES (config.ts) */
  allowedAddresses?: readonly string[];
  /** waits before attempts 2, 3, ... (PAGEGRADE_WEBHOOK_RETRY_MS) */
  retryMs: readonly number[];
  userAgent: string;
  timeoutMs?: number;
}

export interface RegisterInput {
  url: string;
  events?: string | readonly string[];
}

/** `msg_` + the time in base36 (so ids sort by creation) + 16 random bytes. */
function deliveryId(now: Date): string {
  return `msg_${now.getTime().toString(36).padStart(9, '0')}${randomBytes(16).toString('base64url')}`;
}

export function createWebhookService(db: Kysely<Database>, enqueue: EnqueueDelivery, options: WebhookServiceOptions) {
  const policy = addressPolicy({ allowPrivate: options.allowPrivateUrls, publicAddressesForTests: options.publicAddressesForTests, allowedAddresses: options.allowedAddresses });
  let box: SecretBox | undefined;
  const secretBox = (): SecretBox => {
    box ??= createSecretBox(typeof options.secretKey === 'string' ? options.secretKey : options.secretKey());
    return box;
  };

  async function ownedWebhook(organizationId: number, id: number) {
    const row = await webhookRepository.findWebhook(db, organizationId, id);
    if (!row) throw new NotFoundError();
    return row;
  }

  async function validUrl(input: string): Promise<string> {
    const parsed = parseTargetUrl(input);
    if (!parsed.ok) throw new ValidationError('url', parsed.message);
    const refusal = await hostRefusal(new URL(parsed.url).hostname, policy);
    if (refusal) throw new ValidationError('url', `The url cannot receive webhooks: ${refusal}`);
    return parsed.url;
  }

  return {
    /** Registers a webhook; the answer holds the plain secret, which is never shown again. */
    async register(organizationId: number, input: RegisterInput): Promise<CreatedWebhook> {
      const events = parseWebhookEvents(input.events);
      const url = await validUrl(input.url);
      if ((await webhookRepository.countWebhooks(db, organizationId)) >= MAX_WEBHOOKS_PER_ACCOUNT) {
        throw new ValidationError(
          'url',
          `An account can have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; delete one it no longer needs first.`,
        );
      }
      const secret = generateWebhookSecret();
      const row = await webhookRepository.insertWebhook(db, {
        organization_id: organizationId,
        url,
        events: events.join(','),
        secret_encrypted: secretBox().encrypt(secret),
        created_at: new Date().toISOString(),
      });
      return { ...toWebhook(row), secret };
    },

    async show(organizationId: number, id: number): Promise<Webhook> {
      return toWebhook(await ownedWebhook(organizationId, id));
    },

    /** Deletes the webhook and its deliveries; queued attempts then find nothing to send. */
    async remove(organizationId: number, id: number): Promise<void> {
      if (!(await webhookRepository.deleteWebhook(db, organizationId, id))) throw new NotFoundError();
    },

    /** The events any of the account's webhooks subscribes to. */
    async subscribedEvents(organizationId: number): Promise<ReadonlySet<WebhookEvent>> {
      return new Set((await webhookRepository.allWebhooks(db, organizationId)).flatMap((row) => row.events.split(',') as WebhookEvent[]));
    },

    /**
     * Sends `event` to every webhook of the account subscribed to it: one stored delivery each, whose
     * body (fixed now, so every attempt signs the same bytes) is queued for the first attempt.
     * Returns the delivery ids.
     */
    async notify(organizationId: number, event: WebhookEvent, data: unknown): Promise<string[]> {
      const subscribed = (await webhookRepository.allWebhooks(db, organizationId)).filter((row) => row.events.split(',').includes(event));
      if (subscribed.length === 0) return [];
      const now = new Date();
      const payload = JSON.stringify({ type: event, timestamp: now.toISOString(), data });
      const deliveries = subscribed.map((webhook) => ({
        id: deliveryId(now),
        webhook_id: webhook.id,
        event,
        payload,
        status: 'pending' as const,
        created_at: now.toISOString(),
      }));
      await webhookRepository.insertDeliveries(db, deliveries);
      for (const delivery of deliveries) {
        try {
          await enqueue({ deliveryId: delivery.id, attempt: 1 }, {});
        } catch (error) {
          // No job will ever attempt it: say so on the delivery rather than leave it pending for good.
          const reason = error instanceof Error ? error.message : String(error);
          await webhookRepository.failDelivery(db, delivery.id, `The delivery could not be queued: ${reason}`);
        }
      }
      return deliveries.map((delivery) => delivery.id);
    },

    /** The queue gave a delivery's job up (it kept failing, or its process kept dying). */
    async giveUp({ deliveryId }: { deliveryId: string }, error: string): Promise<void> {
      await webhookRepository.failDelivery(db, deliveryId, `The delivery could not be attempted: ${error}`);
    },

    /** The `webhook.deliver` job's handler. */
    deliver: createDeliverer(db, enqueue, {
      secretBox,
      policy,
      retryMs: options.retryMs,
      timeoutMs: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      userAgent: options.userAgent,
    }),
  };
}

