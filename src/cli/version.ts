// pagegrade's version: the `version` of its package.json, which lies one level above both src/ and
// dist/ (so this file finds it from the sources and from the compiled code alike). Read when asked,
// so `pagegrade --help` does not pay for it.
import { readFileSync } from 'node:fs';

let version: string | undefined;

export function pagegradeVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
