// Response headers in the shape FetchedPage promises.
import type { Dispatcher } from 'undici';

/** Lower-case names (undici already lowers them), repeated headers joined with ", ". */
export function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** Every line of one header as sent, for headers whose lines must not be merged. */
export function headerLines(headers: Dispatcher.ResponseData['headers'], name: string): string[] {
  const value = headers[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? [...value] : [value];
}
