// Reading a Content-Type header: the media type and its charset parameter.

export interface ParsedContentType {
  /** Lower-case "type/subtype", or null when the header is missing or not a media type. */
  mimeType: string | null;
  /** The charset parameter as written (a label, not yet mapped to an encoding), or null. */
  charset: string | null;
}

export function parseContentType(header: string | null): ParsedContentType {
  if (!header) return { mimeType: null, charset: null };
  const [essence, ...parameters] = header.split(';');
  const mimeType = essence.trim().toLowerCase();
  let charset: string | null = null;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset') continue;
    const value = parameter.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1');
    if (value) charset = value;
    break;
  }
  return { mimeType: /^[^\s/]+\/[^\s/]+$/.test(mimeType) ? mimeType : null, charset };
}

export function isHtmlMimeType(mimeType: string): boolean {
  return mimeType === 'text/html' || mimeType === 'application/xhtml+xml';
}
