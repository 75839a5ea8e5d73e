import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { pingDatabase } from '../repositories/health.repository.ts';

export function createHealthService(db: Kysely<Database>) {
  return { ping: () => pingDatabase(db) };
}
