// Case-insensitive substring search that treats every character of the term literally, the same on
// SQLite and PostgreSQL: the column holds a lower-case copy and LIKE's wildcards are escaped.
import { sql, type RawBuilder, type SqlBool } from 'kysely';

export type SortDirection = 'asc' | 'desc';

export function containsPattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** `<lowerCaseColumn> LIKE <pattern> ESCAPE '\'`, the pattern made by containsPattern (a bound value). */
export function lowerCaseColumnLike(lowerCaseColumn: string, pattern: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(lowerCaseColumn)} like ${pattern} escape '\\'`;
}
