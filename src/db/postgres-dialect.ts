// PostgreSQL through Kysely, introspecting only the app's own schema. Kysely's own introspector reads
// every column of every table in every schema, and names each table in a function call
// (pg_get_serial_sequence) that fails with "relation does not exist" when another session drops that
// table meanwhile: on a database shared by several schemas (an installation's neighbours, tests side
// by side) a migration could fail for what another schema did. All pagegrade asks of introspection is
// whether the migrator's tables exist in the current schema (migrate.ts pins it there).
import {
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

class CurrentSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<any>,
    private readonly schemas: DatabaseIntrospector,
  ) {}

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.schemas.getSchemas();
  }

  /** The tables and views of current_schema(), without their columns (nothing here reads them). */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ schema: string; name: string; kind: string }>`
      select n.nspname as schema, c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.db);
    return rows.map((row) => ({ schema: row.schema, name: row.name, isView: row.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

export class CurrentSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db, super.createIntrospector(db));
  }
}
