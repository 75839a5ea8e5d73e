// How a referenced URL is shown in `errors`: absolute, so it can be opened, and data: URLs cut short.
import { resolveUrl } from '../../parse/url.ts';

const MAX_DATA_URL_CHARS = 60;

export function displayUrl(raw: string, baseUrl: string): string {
  const trimmed = raw.trim();
  if (/^data:/i.test(trimmed)) {
    return trimmed.length > MAX_DATA_URL_CHARS ? `${trimmed.slice(0, MAX_DATA_URL_CHARS)}…` : trimmed;
  }
  return resolveUrl(trimmed, baseUrl)?.href ?? trimmed;
}
