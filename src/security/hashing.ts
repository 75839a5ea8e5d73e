// Secrets at rest: API keys are random, so a fast SHA-256 suffices; passwords are chosen by people,
// so they get a slow salted scrypt, compared in constant time.
import { hash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const API_KEY_PREFIX = 'pg_';
const API_KEY_BYTES = 32;

// Node's scrypt defaults (N=2^14, r=8, p=1: about 16 MiB and a few tens of ms), which OWASP's
// minimum also is; stored with each hash so they can be raised later without breaking old hashes.
const SCRYPT_N = 16_384;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** Refuse parameters from a stored hash that would make verification exhaust memory (128·N·r bytes). */
const MAX_SCRYPT_MEMORY = 64 * 1024 * 1024;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(API_KEY_BYTES).toString('base64url');
}

/** Every API request hashes its key: the one-shot hash, a third of createHash's cost (no Hash object). */
export function hashApiKey(secret: string): string {
  return hash('sha256', secret, 'hex');
}

/** `scrypt$N$r$p$<salt base64url>$<hash base64url>` */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await scryptAsync(password, salt, HASH_BYTES, { N: SCRYPT_N, r: SCRYPT_R, p: SCRYPT_P });
  return ['scrypt', SCRYPT_N, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** False for a wrong password and for a stored value that is not one of our hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStoredHash(stored);
  if (parsed === null) return false;
  const { N, r, p, salt, hash } = parsed;
  const candidate = await scryptAsync(password, salt, hash.length, { N, r, p, maxmem: 2 * MAX_SCRYPT_MEMORY });
  return timingSafeEqual(candidate, hash);
}

function parseStoredHash(stored: string) {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const hash = Buffer.from(parts[5], 'base64url');
  const isPowerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  const isSmallPositive = (value: number) => Number.isInteger(value) && value >= 1 && value <= 16;
  if (!isPowerOfTwo || !isSmallPositive(r) || !isSmallPositive(p)) return null;
  if (128 * N * r > MAX_SCRYPT_MEMORY) return null;
  if (salt.length === 0 || hash.length < 16) return null;
  return { N, r, p, salt, hash };
}

function scryptAsync(password: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}
