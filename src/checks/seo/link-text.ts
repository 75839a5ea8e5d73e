import { capItems, defineCheck, notApplicable } from '../check.ts';
import { anchorTargets, withoutFragment } from '../../parse/link-urls.ts';
import { isJsWhitespace } from '../../parse/whitespace.ts';
import { outcomeFromErrors } from './outcome.ts';
import { locate } from '../locate.ts';
import type { Anchor } from '../../parse/page-snapshot.ts';
import { Int, Obj } from '../value-schema.ts';

// Whole link texts that say nothing about the destination, per language (lower-case, without the
// trailing punctuation or arrows that are stripped before comparing). Lighthouse's lists plus more.
const GENERIC_LINK_TEXTS: Record<string, readonly string[]> = {
  en: ['click here', 'click this', 'click', 'go', 'go here', 'here', 'right here', 'this', 'this link', 'this page', 'link', 'information', 'more', 'more info', 'more information', 'more details', 'learn more', 'read more', 'read on', 'see more', 'view more', 'find out more', 'continue reading', 'keep reading', 'start'],
  es: ['click aquí', 'click aqui', 'clic aquí', 'clic aqui', 'haz clic aquí', 'haz clic aqui', 'clicka aquí', 'clicka aqui', 'pincha aquí', 'pincha aqui', 'aquí', 'aqui', 'más', 'mas', 'más información', 'más informacion', 'mas información', 'mas informacion', 'leer más', 'leer mas', 'ver más', 'ver mas', 'seguir leyendo', 'este', 'enlace', 'este enlace', 'empezar'],
  fr: ['cliquez ici', 'cliquer ici', 'clique ici', 'ici', 'plus', "plus d'infos", "plus d'informations", 'en savoir plus', 'lire la suite', 'lire plus', 'voir plus', 'la suite', 'suite', 'ce lien', 'lien', 'commencer'],
  de: ['klicke hier', 'klicken sie hier', 'hier klicken', 'hier', 'mehr', 'mehr erfahren', 'mehr lesen', 'mehr info', 'mehr infos', 'mehr informationen', 'weiterlesen', 'weiter', 'siehe', 'dies', 'das', 'dieser link', 'link'],
  pt: ['clique aqui', 'clica aqui', 'aqui', 'ir', 'mais', 'saiba mais', 'leia mais', 'ler mais', 'veja mais', 'ver mais', 'mais informação', 'mais informações', 'mais informacoes', 'continue lendo', 'continuar lendo', 'este link', 'link'],
  it: ['clicca qui', 'clicca qua', 'qui', 'qua', 'più', 'piu', 'di più', 'scopri di più', 'scopri di piu', 'leggi di più', 'leggi di piu', 'leggi tutto', 'leggi altro', 'continua a leggere', 'altro', 'maggiori informazioni', 'questo link', 'link', 'inizia'],
  nl: ['klik hier', 'hier', 'meer', 'lees meer', 'meer lezen', 'meer info', 'meer informatie', 'bekijk meer', 'verder lezen', 'deze link', 'link'],
  sv: ['klicka här', 'här', 'läs mer', 'mer', 'mer info', 'mer information'],
  pl: ['kliknij tutaj', 'tutaj', 'więcej', 'czytaj więcej', 'dowiedz się więcej', 'zobacz więcej'],
  ja: ['ここをクリック', 'こちらをクリック', 'こちら', 'ここ', 'リンク', '続きを読む', '続く', '全文表示', 'もっと見る', '詳しくはこちら', '詳細はこちら'],
  ko: ['여기', '여기를 클릭', '클릭', '링크', '자세히', '자세히 보기', '계속', '이동', '전체 보기'],
  fa: ['اطلاعات بیشتر', 'اطلاعات', 'این', 'اینجا بزنید', 'اینجا کلیک کنید', 'اینجا', 'برو', 'بیشتر بخوانید', 'بیشتر بدانید', 'بیشتر', 'شروع'],
  ta: ['அடுத்த பக்கம்', 'மறுபக்கம்', 'முந்தைய பக்கம்', 'முன்பக்கம்', 'மேலும் அறிக', 'மேலும் தகவலுக்கு', 'மேலும் தரவுகளுக்கு', 'தயவுசெய்து இங்கே அழுத்தவும்', 'இங்கே கிளிக் செய்யவும்'],
  zh: ['点击这里', '点击此处', '这里', '更多', '阅读更多', '了解更多', '查看更多', '點擊這裡', '這裡', '閱讀更多', '瞭解更多'],
};
const ALL_GENERIC = new Set(Object.values(GENERIC_LINK_TEXTS).flat());

/** Longer than any generic phrase with room for edge punctuation, arrows and spaces. */
const MAX_GENERIC_TEXT_CHARS = 64;

/** Links that are not links to another page, for this check. */
const SKIPPED_SCHEMES = /^(?:javascript|mailto|tel):/i;

/** Starts with the first letter of a SKIPPED_SCHEMES scheme, so the regular expression is worth running. */
function mayHaveSkippedScheme(href: string): boolean {
  const first = href.charCodeAt(0) | 0x20;
  return first === 0x6a || first === 0x6d || first === 0x74; // j m t
}

const LinkTextValue = Obj({ links_checked: Int(), generic: Int() });

export const linkTextCheck = defineCheck<typeof LinkTextValue>({
  id: 'link_text',
  category: 'seo',
  importance: 'medium',
  title: 'Links have descriptive text',
  failureTitle: 'Some links have generic text',
  description:
    'Search engines use the words of a link to understand the page it points to, and readers scan links to decide where to go. "Click here" or "read more" tells neither anything.',
  howToFix: 'Rewrite each listed link so its text names the destination, e.g. "our pricing plans" instead of "click here".',
  differsFromLighthouse:
    'The generic phrases are a longer list in more languages (the page\'s language plus English, every list when the language is unknown), and punctuation, symbols and arrows at either end of the text are ignored, so "Read more »" and "→ here" count as generic; Lighthouse compares the trimmed text exactly against its shorter lists. Links to the page itself (`href=""`, `#...`) are skipped by both.',
  labels: {
    links_checked: 'Links checked', generic: 'Links with generic text', href: 'Link to', text: 'Link text',
  },
  value: LinkTextValue,
  run({ page, snapshot }) {
    const generic = genericTextsFor(snapshot.htmlLang);
    const offending: Anchor[] = [];
    let checked = 0;
    const { anchors } = snapshot;
    const targets = anchorTargets(snapshot);
    const pageWithoutFragment = withoutFragment(page.finalUrl);
    for (let i = 0; i < anchors.length; i++) {
      const anchor = anchors[i];
      if (anchor.href === null || anchor.text === '' || anchor.rel.includes('nofollow')) continue;
      const href = anchor.href.trim();
      // An empty href points at the page itself, like a `#` link: not a link to another page
      // (crawlable_anchors reports it as uncrawlable).
      if (href === '') continue;
      if (mayHaveSkippedScheme(href) && SKIPPED_SCHEMES.test(href)) continue;
      if (targets.jumpsWithinPage(i, pageWithoutFragment)) continue;
      checked++;
      // Generic phrases are short; a long text cannot be one, so it skips the normalising work.
      if (anchor.text.length <= MAX_GENERIC_TEXT_CHARS && generic.has(normaliseLinkText(anchor.text))) {
        offending.push(anchor);
      }
    }
    if (checked === 0) return notApplicable('the page has no links with text to other pages');
    const value = { links_checked: checked, generic: offending.length };
    const listed = capItems(offending).map((anchor) => ({ href: (anchor.href ?? '').trim(), text: anchor.text, ...locate(page, anchor) }));
    return outcomeFromErrors(value, offending.length === 0 ? {} : { generic: listed });
  },
});

/** The page language's list plus English (used everywhere); every list when the language is unknown. */
function genericTextsFor(htmlLang: string | null): ReadonlySet<string> {
  const language = htmlLang?.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if (!Object.hasOwn(GENERIC_LINK_TEXTS, language)) return ALL_GENERIC;
  return new Set([...GENERIC_LINK_TEXTS.en, ...GENERIC_LINK_TEXTS[language]]);
}

const EDGE_CHARACTER = /^[\p{P}\p{S}\s]$/u;
/** EDGE_CHARACTER for each ASCII code unit, so most texts need no regular expression at all. */
const ASCII_EDGE = Array.from({ length: 0x80 }, (_, code) => EDGE_CHARACTER.test(String.fromCharCode(code)));

/** Lower-case, one space between words, curly apostrophes straightened, edge punctuation and arrows dropped. */
function normaliseLinkText(text: string): string {
  const lower = text.toLowerCase();
  // Most link texts are already plain words: skip the three regex passes (the costliest part of this
  // check on pages with thousands of links).
  if (!needsRewrite(lower) && !isEdgeCharacter(lower, 0) && !isEdgeCharacter(lower, lower.length - 1)) return lower;
  return lower
    .replace(/’/g, "'")
    .replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '')
    .replace(/\s+/g, ' ');
}

/** Whitespace other than single spaces, or a curly apostrophe (`/[^\S ]| {2}|’/`): what only the full rewrite handles. */
function needsRewrite(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x2019) return true;
    if (isJsWhitespace(code) && (code !== 0x20 || text.charCodeAt(i + 1) === 0x20)) return true;
  }
  return false;
}

/** Punctuation, symbol or space at `index`; half of a surrogate pair counts, leaving it to the full rewrite. */
function isEdgeCharacter(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code < 0x80) return ASCII_EDGE[code];
  return (code >= 0xd800 && code <= 0xdfff) || EDGE_CHARACTER.test(text[index]);
}
