// A robots.txt path pattern (RFC 9309 section 2.2.3), compiled once so that matching a path costs
// time linear in the pattern's length plus the path's, whatever the pattern holds (docs/checks.md,
// "robots.txt limits"). `*` matches any run of characters, a final `$` the end of the path, and any
// other `$` itself. The literal pieces between `*`s are found left to right, each at its left-most
// place: a later piece can only gain from an earlier one ending sooner, so greedy placement finds a
// match whenever there is one, and `*` never backtracks.

export type PathMatcher = (path: string) => boolean;

/** `pattern` must already be in the spelling paths are compared in (normalisePercentEncoding). */
export function compilePattern(pattern: string): PathMatcher {
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const head = pieces[0];
  if (pieces.length === 1) return anchored ? (path) => path === head : (path) => path.startsWith(head);

  // Anchored, the last piece must end the path: it is checked there, not searched for.
  const tail = anchored ? pieces[pieces.length - 1] : '';
  const searched: string[] = [];
  const fallbacks: (Int32Array | null)[] = [];
  for (let i = 1; i < (anchored ? pieces.length - 1 : pieces.length); i++) {
    if (pieces[i] === '') continue;
    searched.push(pieces[i]);
    fallbacks.push(pieces[i].length === 1 ? null : fallbackTable(pieces[i]));
  }
  // A path lacking the longest piece anywhere cannot match: one native search rules most paths out
  // before the pieces are placed one by one (a file of many wildcard rules is mostly such misses).
  const longest = searched.reduce((a, b) => (b.length > a.length ? b : a), '');
  return (path) => {
    if (!path.startsWith(head)) return false;
    if (longest.length > 1 && path.indexOf(longest, head.length) === -1) return false;
    let at = head.length;
    for (let i = 0; i < searched.length && at !== -1; i++) at = endOfFirst(path, searched[i], fallbacks[i], at);
    return at !== -1 && (!anchored || (path.length - tail.length >= at && path.endsWith(tail)));
  };
}

/** Knuth-Morris-Pratt's failure function: how much of `piece` still matches after a mismatch. */
function fallbackTable(piece: string): Int32Array {
  const fallback = new Int32Array(piece.length);
  for (let i = 1, k = 0; i < piece.length; i++) {
    while (k > 0 && piece.charCodeAt(i) !== piece.charCodeAt(k)) k = fallback[k - 1];
    if (piece.charCodeAt(i) === piece.charCodeAt(k)) k++;
    fallback[i] = k;
  }
  return fallback;
}

/**
 * Where the first occurrence of `piece` at or after `from` ends in `path`, or -1. Reads each path
 * character at most twice (a one-character piece, which never falls back, is a plain indexOf).
 */
function endOfFirst(path: string, piece: string, fallback: Int32Array | null, from: number): number {
  if (fallback === null) {
    const found = path.indexOf(piece, from);
    return found === -1 ? -1 : found + 1;
  }
  const first = piece[0];
  for (let i = from, k = 0; i < path.length; i++) {
    // With nothing matched yet, the next place the piece can start is where its first character is:
    // the native search skips there at memory speed (still reading each character once).
    if (k === 0) {
      i = path.indexOf(first, i);
      if (i === -1) return -1;
    }
    const ch = path.charCodeAt(i);
    while (k > 0 && ch !== piece.charCodeAt(k)) k = fallback[k - 1];
    if (ch === piece.charCodeAt(k)) k++;
    if (k === piece.length) return i + 1;
  }
  return -1;
}
