import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, hashPassword, verifyPassword } from './hashing.ts';

describe('API keys', () => {
  it('are pg_ plus 32 random bytes in base64url, different every time', () => {
    const first = generateApiKey();
    expect(first).toMatch(/^pg_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(first);
  });

  it('hash to the SHA-256 hex of the secret', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('passwords', () => {
  it('verify against their own salted hash and not against another password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('get a new salt each time', async () => {
    const [first, second] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(first).not.toBe(second);
    expect(await verifyPassword('same', second)).toBe(true);
  });

  it('compare in Unicode normal form, so a composed and a decomposed é match', async () => {
    const stored = await hashPassword('caf\u00e9');
    expect(await verifyPassword('cafe\u0301', stored)).toBe(true);
  });

  it('never verify against a malformed or unaffordable stored value', async () => {
    const valid = await hashPassword('secret');
    const [, , , , salt, hash] = valid.split('$');
    for (const stored of [
      '',
      'secret',
      `bcrypt$16384$8$1$${salt}$${hash}`,
      `scrypt$16384$8$1$${salt}`,
      `scrypt$1000$8$1$${salt}$${hash}`,
      `scrypt$16384$0$1$${salt}$${hash}`,
      `scrypt$1048576$8$1$${salt}$${hash}`,
      `scrypt$16384$8$1$$${hash}`,
      `scrypt$16384$8$1$${salt}$c2hvcnQ`,
    ]) {
      expect(await verifyPassword('secret', stored), stored).toBe(false);
    }
  });
});
