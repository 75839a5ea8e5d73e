// What every repository function takes first: the database or a transaction on it.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.ts';

export type DbExecutor = Kysely<Database> | Transaction<Database>;
