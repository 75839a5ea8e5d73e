// Text for a terminal: colours only where they will be understood, and nothing from an analysed page
// that could move the cursor, recolour the output or reorder it (escape sequences, bidi overrides).

/** Line breaks and tabs become one space, so a page-derived string stays on its line. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** C0 and C1 controls (ESC, CSI, BEL, ...), DEL, and the bidi embeddings, overrides and isolates. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Makes an untrusted string safe to print on one terminal line. */
export function printable(text: string): string {
  return text.replace(BREAKS, ' ').replace(CONTROLS, '');
}

/** Shortens to at most `max` characters (code points), ending with an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

export function displayWidth(text: string): number {
  return [...text].length;
}

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

function sgr(open: number, close: number) {
  return (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
}

const plain = (text: string) => text;

export function createStyle(colour: boolean): Style {
  if (!colour) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain };
  return { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39) };
}

/**
 * Node's convention: FORCE_COLOR wins ("0" or "false" turn colour off, anything else on), then a
 * non-empty NO_COLOR turns it off (no-color.org), otherwise colour only on a terminal that is not dumb.
 */
export function wantsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR) return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}
