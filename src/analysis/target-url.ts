// Validation and normalisation of the URL a report is made for (`url` of POST /api/v1/reports, docs/api.md).

const MAX_URL_LENGTH = 2048;

export type TargetUrlResult = { ok: true; url: string; project: string } | { ok: false; message: string };

/**
 * Accepts an absolute http(s) URL without credentials and returns it normalised the way the
 * WHATWG URL parser does (scheme and host lower-case, IDN host in punycode, default port
 * dropped) with the #fragment removed. The project is the host, with :port when not default.
 */
export function parseTargetUrl(input: string): TargetUrlResult {
  const raw = input.trim();
  if (raw === '') return { ok: false, message: 'The url field is required.' };
  if (raw.length > MAX_URL_LENGTH) {
    return { ok: false, message: `The url must be at most ${MAX_URL_LENGTH} characters; it has ${raw.length}.` };
  }
  if (!URL.canParse(raw)) {
    return { ok: false, message: 'The url must be an absolute URL starting with http:// or https://.' };
  }
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `The url must use http or https; "${url.protocol.slice(0, -1)}" is not supported.` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, message: 'The url must not contain a user name or password.' };
  }
  if (url.hostname === '') return { ok: false, message: 'The url must name a host.' };
  url.hash = '';
  const normalised = url.href;
  if (normalised.length > MAX_URL_LENGTH) {
    return { ok: false, message: `The url must be at most ${MAX_URL_LENGTH} characters once normalised.` };
  }
  return { ok: true, url: normalised, project: url.host };
}
