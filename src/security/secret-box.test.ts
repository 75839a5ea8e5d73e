import { describe, expect, it } from 'vitest';
import { SecretBoxError, createSecretBox } from './secret-box.ts';

const KEY = 'a-test-key-of-at-least-thirty-two-characters';

describe('secret box', () => {
  it('gives back what it sealed; the sealed text is versioned and never holds the plain text', () => {
    const box = createSecretBox(KEY);
    const plain = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const sealed = box.encrypt(plain);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('MfKQ9r8');
    expect(box.decrypt(sealed)).toBe(plain);
    // a fresh IV each time: the same secret never seals to the same text
    expect(box.encrypt(plain)).not.toBe(sealed);
  });

  it('refuses a sealed text that was changed, with an error that says so', () => {
    const box = createSecretBox(KEY);
    const [version, iv, ciphertext, tag] = box.encrypt('whsec_abc').split('.');
    const flipped = Buffer.from(ciphertext, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.decrypt([version, iv, flipped.toString('base64url'), tag].join('.'))).toThrow(SecretBoxError);
    expect(() => box.decrypt([version, iv, flipped.toString('base64url'), tag].join('.'))).toThrow(/was changed, or PAGEGRADE_SECRET_KEY/);
    expect(() => box.decrypt([version, iv, ciphertext].join('.'))).toThrow(/not in the "v1" format/);
    expect(() => box.decrypt(`v2.${iv}.${ciphertext}.${tag}`)).toThrow(/not in the "v1" format/);
    expect(() => box.decrypt([version, iv, ciphertext, tag.slice(0, 8)].join('.'))).toThrow(/truncated or damaged/);
  });

  it('refuses to open with another key', () => {
    const sealed = createSecretBox(KEY).encrypt('whsec_abc');
    expect(() => createSecretBox(`${KEY}-other`).decrypt(sealed)).toThrow(/not the key it was stored with/);
  });
});
