// The document mode a doctype gives, per the HTML standard (tokenizer DOCTYPE states and the
// "initial" insertion mode). Only no-quirks counts as standards mode: Lighthouse fails limited-quirks
// too.
import { isAsciiWhitespace } from './whitespace.ts';

export type DocumentMode = 'no-quirks' | 'limited-quirks' | 'quirks';

interface DoctypeToken {
  name: string;
  publicId: string | null;
  systemId: string | null;
  forceQuirks: boolean;
}

const QUIRKS_PUBLIC_IDS = new Set(['-//w3o//dtd w3 html strict 3.0//en//', '-/w3c/dtd html 4.0 transitional/en', 'html']);
const QUIRKS_SYSTEM_ID = 'http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd';
const QUIRKS_PUBLIC_ID_PREFIXES = [
  '+//silmaril//dtd html pro v0r11 19970101//',
  '-//as//dtd html 3.0 aswedit + extensions//',
  '-//advasoft ltd//dtd html 3.0 aswedit + extensions//',
  '-//ietf//dtd html 2.0 level 1//',
  '-//ietf//dtd html 2.0 level 2//',
  '-//ietf//dtd html 2.0 strict level 1//',
  '-//ietf//dtd html 2.0 strict level 2//',
  '-//ietf//dtd html 2.0 strict//',
  '-//ietf//dtd html 2.0//',
  '-//ietf//dtd html 2.1e//',
  '-//ietf//dtd html 3.0//',
  '-//ietf//dtd html 3.2 final//',
  '-//ietf//dtd html 3.2//',
  '-//ietf//dtd html 3//',
  '-//ietf//dtd html level 0//',
  '-//ietf//dtd html level 1//',
  '-//ietf//dtd html level 2//',
  '-//ietf//dtd html level 3//',
  '-//ietf//dtd html strict level 0//',
  '-//ietf//dtd html strict level 1//',
  '-//ietf//dtd html strict level 2//',
  '-//ietf//dtd html strict level 3//',
  '-//ietf//dtd html strict//',
  '-//ietf//dtd html//',
  '-//metrius//dtd metrius presentational//',
  '-//microsoft//dtd internet explorer 2.0 html strict//',
  '-//microsoft//dtd internet explorer 2.0 html//',
  '-//microsoft//dtd internet explorer 2.0 tables//',
  '-//microsoft//dtd internet explorer 3.0 html strict//',
  '-//microsoft//dtd internet explorer 3.0 html//',
  '-//microsoft//dtd internet explorer 3.0 tables//',
  '-//netscape comm. corp.//dtd html//',
  '-//netscape comm. corp.//dtd strict html//',
  "-//o'reilly and associates//dtd html 2.0//",
  "-//o'reilly and associates//dtd html extended 1.0//",
  "-//o'reilly and associates//dtd html extended relaxed 1.0//",
  '-//sq//dtd html 2.0 hotmetal + extensions//',
  '-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//',
  '-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//',
  '-//spyglass//dtd html 2.0 extended//',
  '-//sun microsystems corp.//dtd hotjava html//',
  '-//sun microsystems corp.//dtd hotjava strict html//',
  '-//w3c//dtd html 3 1995-03-24//',
  '-//w3c//dtd html 3.2 draft//',
  '-//w3c//dtd html 3.2 final//',
  '-//w3c//dtd html 3.2//',
  '-//w3c//dtd html 3.2s draft//',
  '-//w3c//dtd html 4.0 frameset//',
  '-//w3c//dtd html 4.0 transitional//',
  '-//w3c//dtd html experimental 19960712//',
  '-//w3c//dtd html experimental 970421//',
  '-//w3c//dtd w3 html//',
  '-//w3o//dtd w3 html 3.0//',
  '-//webtechs//dtd mozilla html 2.0//',
  '-//webtechs//dtd mozilla html//',
];
/** HTML 4.01 frameset/transitional: quirks without a system id, limited-quirks with one. */
const HTML401_LOOSE_PREFIXES = ['-//w3c//dtd html 4.01 frameset//', '-//w3c//dtd html 4.01 transitional//'];
const LIMITED_QUIRKS_PUBLIC_ID_PREFIXES = ['-//w3c//dtd xhtml 1.0 frameset//', '-//w3c//dtd xhtml 1.0 transitional//'];

/**
 * Reads a DOCTYPE declaration as htmlparser2 reports it: the text between `<` and `>`, starting
 * with `!doctype` in any case, e.g. `!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN"`.
 */
function tokenizeDoctype(declaration: string): DoctypeToken {
  const token: DoctypeToken = { name: '', publicId: null, systemId: null, forceQuirks: true };
  const length = declaration.length;
  let i = '!doctype'.length;
  const skipSpace = (): void => {
    while (i < length && isAsciiWhitespace(declaration.charCodeAt(i))) i++;
  };
  /** A quoted identifier at `i`; null when the quote is missing or never closed. */
  const readQuoted = (): string | null => {
    skipSpace();
    const quote = declaration[i];
    if (quote !== '"' && quote !== "'") return null;
    const close = declaration.indexOf(quote, i + 1);
    if (close === -1) return null;
    const value = declaration.slice(i + 1, close);
    i = close + 1;
    return value;
  };

  skipSpace();
  if (i >= length) return token; // no name
  const nameStart = i;
  while (i < length && !isAsciiWhitespace(declaration.charCodeAt(i))) i++;
  token.name = declaration.slice(nameStart, i).toLowerCase();
  skipSpace();
  if (i >= length) {
    token.forceQuirks = false;
    return token;
  }

  const keyword = declaration.slice(i, i + 6).toLowerCase();
  i += 6;
  if (keyword === 'public') {
    token.publicId = readQuoted();
    if (token.publicId === null) return token;
    skipSpace();
    if (i < length) {
      token.systemId = readQuoted();
      if (token.systemId === null) return token;
    }
    token.forceQuirks = false;
  } else if (keyword === 'system') {
    token.systemId = readQuoted();
    if (token.systemId === null) return token;
    token.forceQuirks = false;
  }
  return token; // anything else after the name is a bogus doctype: force-quirks
}

function hasPrefix(id: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => id.startsWith(prefix));
}

export function documentMode(declaration: string): DocumentMode {
  const token = tokenizeDoctype(declaration);
  if (token.forceQuirks || token.name !== 'html') return 'quirks';
  const systemId = token.systemId?.toLowerCase() ?? null;
  if (systemId === QUIRKS_SYSTEM_ID) return 'quirks';
  if (token.publicId === null) return 'no-quirks';

  const publicId = token.publicId.toLowerCase();
  if (QUIRKS_PUBLIC_IDS.has(publicId) || hasPrefix(publicId, QUIRKS_PUBLIC_ID_PREFIXES)) return 'quirks';
  if (hasPrefix(publicId, HTML401_LOOSE_PREFIXES)) return systemId === null ? 'quirks' : 'limited-quirks';
  if (hasPrefix(publicId, LIMITED_QUIRKS_PUBLIC_ID_PREFIXES)) return 'limited-quirks';
  return 'no-quirks';
}
