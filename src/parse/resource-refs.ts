// Building the list of sub-resources a page references (for http_requests and mixed_content).
import type { ResourceRef } from './page-snapshot.ts';
import { parseSrcset } from './srcset.ts';

const NO_REQUEST_SCHEMES = ['data:', 'blob:', 'about:', 'javascript:'];

/** False for empty values and for schemes that never cause a network request. */
function isNetworkUrl(raw: string): boolean {
  const url = raw.trimStart();
  if (url === '') return false;
  const first = url.charCodeAt(0) | 0x20; // lower-case ASCII letter
  // only data:, blob:, about: and javascript: start with these letters; skip the slice otherwise
  if (first !== 0x64 && first !== 0x62 && first !== 0x61 && first !== 0x6a) return true;
  const head = url.slice(0, 11).toLowerCase();
  return !NO_REQUEST_SCHEMES.some((scheme) => head.startsWith(scheme));
}

export function addResource(
  refs: ResourceRef[],
  tag: string,
  attr: string,
  url: string | undefined,
  deferred: boolean,
): void {
  if (url !== undefined && isNetworkUrl(url)) refs.push({ tag, attr, url, deferred });
}

/** One ref per srcset candidate, each with attr "srcset". */
export function addSrcsetResources(
  refs: ResourceRef[],
  tag: string,
  srcset: string | undefined,
  deferred: boolean,
): void {
  if (srcset === undefined) return;
  for (const { url } of parseSrcset(srcset)) addResource(refs, tag, 'srcset', url, deferred);
}
