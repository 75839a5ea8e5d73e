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

/** `sql` with every `?` placeholder outside quotes and comments written as `+?`. */
export function withValueBlindPlaceholders(sql: string): string {
  let out = '';
  let index = 0;
  while (index < sql.length) {
    const char = sql[index];
    const skipTo = endOfQuotedOrComment(sql, index);
    if (skipTo > index) {
      out += sql.slice(index, skipTo);
      index = skipTo;
    } else {
      out += char === '?' ? '+?' : char;
      index += 1;
    }
  }
  return out;
}

const CLOSING_QUOTE: Record<string, string> = { "'": "'", '"': '"', '`': '`', '[': ']' };

/** Where the quoted text or comment starting at `start` ends (past it); `start` when none starts there. */
function endOfQuotedOrComment(sql: string, start: number): number {
  const char = sql[start];
  if (char === '-' && sql[start + 1] === '-') {
    const newline = sql.indexOf('\n', start);
    return newline === -1 ? sql.length : newline + 1;
  }
  if (char === '/' && sql[start + 1] === '*') {
    const close = sql.indexOf('*/', start + 2);
    return close === -1 ? sql.length : close + 2;
  }
  const closing = CLOSING_QUOTE[char];
  if (closing === undefined) return start;
  // A doubled quote inside quotes is the quote itself ('it''s'); the scan simply goes on past it.
  const close = sql.indexOf(closing, start + 1);
  return close === -1 ? sql.length : close + 1;
}
