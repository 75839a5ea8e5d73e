// The stylesheet, script and icon under /assets/. Each URL carries a hash of the file's content, so
// browsers may keep a file for a year and still fetch the new one the moment it changes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ASSETS_DIRECTORY = join(import.meta.dirname, 'assets');
export const ASSETS_PREFIX = '/assets/';

export type AssetName = 'app.css' | 'print.css' | 'report-forms.js' | 'favicon.svg';
const ASSET_NAMES: readonly AssetName[] = ['app.css', 'print.css', 'report-forms.js', 'favicon.svg'];

const versions = new Map<AssetName, string>(
  ASSET_NAMES.map((name) => [
    name,
    createHash('sha256').update(readFileSync(join(ASSETS_DIRECTORY, name))).digest('hex').slice(0, 12),
  ]),
);

export function assetUrl(name: AssetName): string {
  return `${ASSETS_PREFIX}${name}?v=${versions.get(name)}`;
}
