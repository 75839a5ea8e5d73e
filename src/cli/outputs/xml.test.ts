import { parseDocument, DomUtils } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { junitSchemaErrors } from '../../../test/cli/schemas.ts';
import { escapeXml } from './xml.ts';

const HOSTILE = `a]]>b <c> & "d" 'e' \u0000\u0001\u0008\u000b\u000c\u001b[31m\u001f \t tab\nline\r\ncrlf \ud800 lone \uffff\ufffe end 😀 é`;
/** What survives: everything XML 1.0 can carry. */
const KEPT = `a]]>b <c> & "d" 'e' [31m \t tab\nline\r\ncrlf  lone  end 😀 é`;

describe('escapeXml', () => {
  it('escapes markup, quotes and ]]>, and drops what XML 1.0 cannot carry', () => {
    expect(escapeXml(HOSTILE, 'text')).toBe(`a]]&gt;b &lt;c&gt; &amp; &quot;d&quot; &apos;e&apos; [31m \t tab\nline&#13;\ncrlf  lone  end 😀 é`);
    expect(escapeXml(HOSTILE)).toBe(`a]]&gt;b &lt;c&gt; &amp; &quot;d&quot; &apos;e&apos; [31m &#9; tab&#10;line&#13;&#10;crlf  lone  end 😀 é`);
  });

  it('round-trips through an XML parser, in text and in attributes, and the document is schema-valid', async () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="' +
      escapeXml(HOSTILE) +
      '" tests="1"><testcase name="x"><failure message="' +
      escapeXml(HOSTILE) +
      '">' +
      escapeXml(HOSTILE, 'text') +
      '</failure></testcase></testsuite></testsuites>';
    expect(await junitSchemaErrors(xml)).toEqual([]);
    const document = parseDocument(xml, { xmlMode: true });
    const failure = DomUtils.findOne((element) => element.name === 'failure', document.children);
    expect(failure?.attribs.message).toBe(KEPT);
    expect(DomUtils.textContent(failure!)).toBe(KEPT);
  });

  it('a document with a raw control character is not XML at all (so the dropping matters)', async () => {
    expect(await junitSchemaErrors(`<testsuites><testsuite name="a\u0001" tests="0"/></testsuites>`)).not.toEqual([]);
  });
});
