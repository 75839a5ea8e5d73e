import type { Static } from '@sinclair/typebox';
import { defineCheck, type CheckOutcome } from '../check.ts';
import type { MetaTag } from '../../parse/page-snapshot.ts';
import { Nullable, Obj, OneOf, Str } from '../value-schema.ts';

const CharsetValue = Obj({ charset: Str(), source: Nullable(OneOf(['header', 'bom', 'meta', 'meta_after_1024_bytes'])) });

export const charsetCheck = defineCheck<typeof CharsetValue>({
  id: 'charset',
  category: 'miscellaneous',
  importance: 'medium',
  title: 'The character encoding is declared early',
  failureTitle: 'The character encoding is not declared in time',
  description:
    'Browsers must know the encoding before they read text; without a declaration in the Content-Type header, a BOM or a meta tag in the first 1024 bytes they guess, and accented or non-Latin text can turn into garbage.',
  howToFix:
    'Send `Content-Type: text/html; charset=utf-8`, and put `<meta charset="utf-8">` as the first element of the head.',
  labels: {
    charset: 'Character encoding', source: 'Declared by', declared_too_late: 'Declared too late', missing: 'Not declared',
  },
  value: CharsetValue,
  run({ page, snapshot }): CheckOutcome<Static<typeof CharsetValue>> {
    const earlyMeta = page.metaCharsetInFirst1024Bytes;
    const declaredIn = page.charsetSource === 'header' || page.charsetSource === 'bom' ? page.charsetSource : earlyMeta ? 'meta' : null;
    if (declaredIn !== null) return { passed: true, value: { charset: page.charset, source: declaredIn }, errors: null };
    const lateMeta = snapshot.metas.find(declaresCharset);
    if (lateMeta) {
      return {
        passed: false,
        value: { charset: page.charset, source: 'meta_after_1024_bytes' },
        errors: { declared_too_late: [`the charset meta tag comes after the first 1024 bytes (${describe(lateMeta)})`] },
      };
    }
    return {
      passed: false,
      value: { charset: page.charset, source: null },
      errors: { missing: ['no charset in the Content-Type header, no BOM and no meta charset'] },
    };
  },
});

function declaresCharset(meta: MetaTag): boolean {
  if (meta.charset?.trim()) return true;
  return meta.httpEquiv === 'content-type' && /charset\s*=/i.test(meta.content ?? '');
}

function describe(meta: MetaTag): string {
  const charset = meta.charset?.trim();
  return charset ? `<meta charset="${charset}">` : `<meta http-equiv="Content-Type" content="${meta.content}">`;
}
