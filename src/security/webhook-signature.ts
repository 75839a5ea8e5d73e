// Webhook secrets and signatures, as the Standard Webhooks specification defines them
// (https://www.standardwebhooks.com): the standardwebhooks package signs, so receivers can verify with
// the same library or any implementation of the spec.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** `whsec_` + base64 of 32 random bytes: shown to the account once, then stored encrypted. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The three headers of one attempt: the same id on every attempt, this attempt's time, the signature. */
export function signatureHeaders(secret: string, deliveryId: string, sentAt: Date, body: string): Record<string, string> {
  return {
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(deliveryId, sentAt, body),
  };
}
