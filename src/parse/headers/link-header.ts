// The HTTP `Link` header (RFC 8288), which can carry rel=canonical and rel=alternate hreflang
// just like <link> tags: `<https://a/>; rel="canonical", <https://a/de>; rel=alternate; hreflang=de`.

export interface HeaderLink {
  /** The URI between < and >, as written. */
  href: string;
  /** rel tokens, lower-case. */
  rel: string[];
  /** Other parameters, names lower-case, values unquoted. */
  params: Record<string, string>;
}

/** Parse a Link header value (repeated headers already joined with ", "). Malformed parts are skipped. */
export function parseLinkHeader(value: string): HeaderLink[] {
  const links: HeaderLink[] = [];
  let i = 0;
  while (i < value.length) {
    const open = value.indexOf('<', i);
    if (open === -1) break;
    const close = value.indexOf('>', open + 1);
    if (close === -1) break;
    const href = value.slice(open + 1, close).trim();
    const { params, end } = readParams(value, close + 1);
    const rel = (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    links.push({ href, rel, params });
    i = end;
  }
  return links;
}

/** Read `; name=value` pairs from `start` up to the comma that ends this link (commas in quotes kept). */
function readParams(value: string, start: number): { params: Record<string, string>; end: number } {
  const params: Record<string, string> = {};
  let i = start;
  while (i < value.length && value[i] !== ',') {
    if (value[i] !== ';') {
      i++;
      continue;
    }
    const match = /^;\s*([^\s=;,]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^;,]*))?/.exec(value.slice(i));
    if (!match) {
      i++;
      continue;
    }
    const name = match[1].toLowerCase();
    const raw = (match[2] ?? '').trim();
    const unquoted = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    // RFC 8288: only the first occurrence of a parameter counts.
    if (!(name in params)) params[name] = unquoted;
    i += match[0].length;
  }
  return { params, end: i + 1 };
}
