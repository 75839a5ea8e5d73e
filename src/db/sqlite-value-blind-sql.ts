// SQLite compiles a statement again, on its next run, whenever a value bound to it changes, if the
// query planner looked at that value while planning: a bound LIMIT or OFFSET, a bound LIKE pattern,
// and, once ANALYZE has written sqlite_stat4 samples, any value compared to an indexed column
// (sqlite3_prepare_v2's documentation). better-sqlite3 binds every value on every run, so those
// statements were parsed and planned anew each time: in the read benchmark most of the API's reads
// (each filters an indexed user_id and pages with LIMIT/OFFSET), about 25 µs each, as long as the
// page read itself. SQLite's switch for planning without values (SQLITE_DBCONFIG_ENABLE_QPSG) is
// not reachable from better-sqlite3; a unary plus in front of a placeholder hides the value from
// the planner all the same: `+` is a no-op in SQLite on any value (affinity included: a placeholder
// has none either), compiles to no instruction, and on the value's side of a comparison leaves the
// column's index usable. Plans then come from sqlite_stat1 alone, as PostgreSQL's generic plans do.

/** Quoted text ('...', "...", `...`, [...]) and comments, each to its end or to the end of the SQL. */
const QUOTED_OR_COMMENT = /('[^']*(?:'|$)|"[^"]*(?:"|$)|`[^`]*(?:`|$)|\[[^\]]*(?:\]|$)|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$))/;

/** `sql` with every `?` placeholder outside quotes and comments written as `+?`. */
export function withValueBlindPlaceholders(sql: string): string {
  // Split on a capturing group, the odd parts are the quoted texts and comments themselves. A doubled
  // quote ('it''s') splits into two quoted parts side by side: the same text comes back.
  return sql
    .split(QUOTED_OR_COMMENT)
    .map((part, index) => (index % 2 === 1 ? part : part.replaceAll('?', '+?')))
    .join('');
}
