import { describe, expect, it } from 'vitest';
import { SafeHtml, escapeHtml, html, httpUrlOrNull, withCodeSpans } from './html.ts';

describe('html templates', () => {
  it('escapes interpolated strings in text and attributes', () => {
    const hostile = `"><script>alert('x')</script>&`;
    const markup = html`<a title="${hostile}">${hostile}</a>`.toString();
    expect(markup).toBe(
      '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">' +
        '&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>',
    );
  });

  it('lets SafeHtml through unescaped, and nests', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}</p>`.toString()).toBe('<p><b>&lt;i&gt;</b></p>');
  });

  it('joins arrays, prints numbers, and renders nothing for null, undefined and false', () => {
    expect(html`<ul>${[1, 2].map((n) => html`<li>${n}</li>`)}</ul>`.toString()).toBe('<ul><li>1</li><li>2</li></ul>');
    expect(html`[${null}${undefined}${false}]`.toString()).toBe('[]');
  });

  it('refuses an object at run time rather than print it', () => {
    const sneaky = { toString: () => '<script>' } as unknown as string;
    expect(() => html`${sneaky}`).toThrow(TypeError);
  });

  it('makes SafeHtml only through the template: a look-alike object is escaped or refused', () => {
    expect(html`${'<x>'}`).toBeInstanceOf(SafeHtml);
    const lookAlike = Object.create(SafeHtml.prototype) as SafeHtml;
    expect(() => lookAlike.toString()).toThrow(TypeError);
  });

  it('turns backtick spans into code elements, escaping their content', () => {
    expect(withCodeSpans('Put one `<title>` in the `<head>`.').toString()).toBe(
      'Put one <code>&lt;title&gt;</code> in the <code>&lt;head&gt;</code>.',
    );
    expect(withCodeSpans('an odd ` backtick').toString()).toBe('an odd ` backtick');
  });

  it('accepts only http and https URLs for links', () => {
    expect(httpUrlOrNull('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(httpUrlOrNull('javascript:alert(1)')).toBeNull();
    expect(httpUrlOrNull('data:text/html,<script>')).toBeNull();
    expect(httpUrlOrNull('not a url')).toBeNull();
  });

  it('escapes the five characters that matter', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});
