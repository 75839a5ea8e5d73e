// The one check a URL gets before anything is fetched from it.
import { FetchError } from './fetch-error.ts';

export function parseHttpUrl(url: string): URL {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new FetchError('invalid_url', `"${url}" is not an http(s) URL.`);
  }
  return parsed;
}
