import type { Static } from '@sinclair/typebox';
import { defineCheck, type CheckOutcome } from '../check.ts';
import { Nullable, Obj, Str } from '../value-schema.ts';

// BCP 47 well-formedness (RFC 5646 section 2.1), case-insensitive: the shape, not the IANA registry.
// "en-US", "zh-Hant-TW", "de-CH-1996", "x-private" pass; "en_US", "e" do not. One registry fact is
// used: the grammar reserves 5-8 letter languages for registration, and none is registered, so
// the common mistakes lang="english" or lang="french" fail.
const LANGUAGE = '[a-z]{2,3}(?:-[a-z]{3}){0,3}'; // 2-3 letters with up to 3 extlangs
const SCRIPT = '(?:-[a-z]{4})?';
const REGION = '(?:-(?:[a-z]{2}|[0-9]{3}))?';
const VARIANTS = '(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*';
const EXTENSIONS = '(?:-[a-wyz0-9](?:-[a-z0-9]{2,8})+)*'; // any singleton but x
const PRIVATE_USE = 'x(?:-[a-z0-9]{1,8})+';
const LANGUAGE_TAG = new RegExp(`^(?:${LANGUAGE}${SCRIPT}${REGION}${VARIANTS}${EXTENSIONS}(?:-${PRIVATE_USE})?|${PRIVATE_USE})$`, 'i');

// Irregular grandfathered tags break the grammar but are well-formed (RFC 5646 section 2.2.8).
const IRREGULAR = new Set([
  'en-gb-oed', 'i-ami', 'i-bnn', 'i-default', 'i-enochian', 'i-hak', 'i-klingon', 'i-lux', 'i-mingo',
  'i-navajo', 'i-pwn', 'i-tao', 'i-tay', 'i-tsu', 'sgn-be-fr', 'sgn-be-nl', 'sgn-ch-de',
]);

const LanguageValue = Obj({ lang: Nullable(Str()) });

export const languageCheck = defineCheck<typeof LanguageValue>({
  id: 'language',
  category: 'seo',
  importance: 'medium',
  title: 'The page declares its language',
  failureTitle: 'The page language is missing or invalid',
  description:
    'The `lang` attribute of `<html>` tells search engines, browsers (translation, hyphenation) and screen readers (pronunciation) which language the page is written in.',
  howToFix: 'Add a BCP 47 language tag to the html element, such as `<html lang="en">` or `<html lang="pt-BR">` (hyphen, not underscore).',
  labels: {
    lang: 'Language (lang)', missing: 'No lang attribute', invalid: 'Invalid language tag',
  },
  value: LanguageValue,
  run({ snapshot }): CheckOutcome<Static<typeof LanguageValue>> {
    const lang = snapshot.htmlLang?.trim() ?? null;
    if (lang === null || lang === '') {
      return { passed: false, value: { lang: snapshot.htmlLang }, errors: { missing: ['<html lang>'] } };
    }
    return isWellFormedLanguageTag(lang)
      ? { passed: true, value: { lang }, errors: null }
      : { passed: false, value: { lang }, errors: { invalid: [lang] } };
  },
});

function isWellFormedLanguageTag(tag: string): boolean {
  return LANGUAGE_TAG.test(tag) || IRREGULAR.has(tag.toLowerCase());
}
