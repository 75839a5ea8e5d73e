// Secrets the service must read back (webhook signing secrets), encrypted at rest with AES-256-GCM
// under a key derived from PAGEGRADE_SECRET_KEY. GCM's tag makes any change to a stored value, or a
// different key, an error instead of a wrong secret.
// Format: "v1.<iv>.<ciphertext>.<tag>", each part base64url; the version lets the scheme change later.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binds the derived key to this use, so the same setting can later derive other keys safely. */
const HKDF_INFO = 'pagegrade secret-box v1';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export interface SecretBox {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/** A box keyed by `secretKey` (PAGEGRADE_SECRET_KEY, or the SQLite key file's contents). */
export function createSecretBox(secretKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), HKDF_INFO, 32));
  return {
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    decrypt(sealed) {
      const parts = sealed.split('.');
      if (parts[0] !== VERSION || parts.length !== 4) {
        throw new SecretBoxError(`The stored secret is not in the "${VERSION}" format this version of pagegrade reads.`);
      }
      const [iv, ciphertext, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('The stored secret is truncated or damaged.');
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError(
          'The stored secret cannot be decrypted: it was changed, or PAGEGRADE_SECRET_KEY is not the key it was stored with.',
        );
      }
    },
  };
}
