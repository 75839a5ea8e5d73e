// Text for XML 1.0 documents (the JUnit output), escaped for element content or a quoted attribute.

/**
 * What XML 1.0 cannot carry at all, not even as a character reference: the C0 controls other than tab,
 * line feed and carriage return, lone surrogates, U+FFFE and U+FFFF. Page text may hold any of them;
 * they are dropped.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const REFERENCES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/**
 * `&`, `<`, `>` and both quotes become entities, so neither markup nor `]]>` can come through. A carriage
 * return becomes a reference everywhere (a parser would turn it into a line feed), and in an attribute
 * tab and line feed do too (a parser would turn them into spaces).
 */
export function escapeXml(text: string, where: 'text' | 'attribute' = 'attribute'): string {
  const special = where === 'attribute' ? /[&<>"'\t\n\r]/g : /[&<>"'\r]/g;
  return text.replace(NOT_XML, '').replace(special, (character) => REFERENCES[character]);
}
