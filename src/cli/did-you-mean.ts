// The command a mistyped one was probably meant to be: the nearest by Levenshtein distance (edits of
// one character: insert, delete, replace), within two edits.
const MAX_EDITS = 2;

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, replace));
    }
    previous = current;
  }
  return previous[b.length];
}

/** A command as far as guessing goes: its name and the other names it runs by. */
export interface Named {
  name: string;
  aliases?: readonly string[];
}

/**
 * The name of the one command within two edits of what was typed, comparing a name of n words with
 * the first n words given (so "users creat ana" is near "users create"), an alias as near as the name;
 * undefined when none is, or when two commands are equally near, since then a guess would be as likely
 * wrong as right.
 */
export function nearestCommand(words: readonly string[], commands: readonly Named[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  let tied = false;
  for (const { name, aliases = [] } of commands) {
    const distance = Math.min(...[name, ...aliases].map((spelling) => editDistance(words.slice(0, spelling.split(' ').length).join(' '), spelling)));
    if (distance > MAX_EDITS || (best && distance > best.distance)) continue;
    tied = best?.distance === distance;
    if (!tied) best = { name, distance };
  }
  return best && !tied ? best.name : undefined;
}
