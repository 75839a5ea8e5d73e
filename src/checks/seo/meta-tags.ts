// Reading <meta> tags by name. Some pages write `value=` instead of `content=`, leaving content null:
// such a tag is present but empty, never a crash.
import type { MetaTag } from '../../parse/page-snapshot.ts';
import { collapseWhitespace } from './text-measure.ts';

/** Meta tags whose `name` (and, with `alsoProperty`, whose `property`) is one of `keys` (lower-case). */
export function metasNamed(metas: readonly MetaTag[], keys: readonly string[], alsoProperty = false): MetaTag[] {
  return metas.filter(
    (meta) =>
      (meta.name !== null && keys.includes(meta.name)) ||
      (alsoProperty && meta.property !== null && keys.includes(meta.property)),
  );
}

/** The tag's content with whitespace collapsed; '' when the attribute is absent. */
export function metaText(meta: MetaTag): string {
  return meta.content === null ? '' : collapseWhitespace(meta.content);
}
