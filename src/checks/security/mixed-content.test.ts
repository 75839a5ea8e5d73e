import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Form, MetaTag, ResourceRef } from '../../parse/page-snapshot.ts';
import { mixedContentCheck } from './mixed-content.ts';

const ref = (tag: string, url: string, attr = 'src'): ResourceRef => ({ tag, attr, url, deferred: false });
const form = (action: string | null): Form => ({ action, method: 'post', hasPasswordField: false, tagStart: 0, tagEnd: 0 });
const cspMeta = (content: string): MetaTag => ({
  name: null, property: null, httpEquiv: 'content-security-policy', charset: null, content, inHead: true,
});

describe('mixed_content', () => {
  it('does not apply to http pages', () => {
    const outcome = mixedContentCheck.run(makeContext({ page: { finalUrl: 'http://example.com/' }, snapshot: { resources: [ref('img', 'http://a.test/x.png')] } }));
    expect(outcome).toMatchObject({ passed: null, reason: 'the page is not served over https' });
  });

  it('passes https, relative and protocol-relative references', () => {
    const resources = [ref('script', '/a.js'), ref('img', '//cdn.example.com/b.png'), ref('link', 'https://x.test/c.css', 'href')];
    const outcome = mixedContentCheck.run(makeContext({ snapshot: { resources, forms: [form('/search')] } }));
    expect(outcome).toMatchObject({ passed: true, value: { insecure: 0 }, errors: null });
  });

  it('fails http references and form actions, listed by tag', () => {
    const resources = [
      ref('script', 'http://cdn.test/a.js'),
      ref('img', 'http://img.test/b.jpg', 'srcset'),
      ref('img', 'HTTP://img.test/c.jpg'),
      ref('iframe', 'http://video.test/embed'),
      ref('img', 'http://localhost/dev.png'),
    ];
    const outcome = mixedContentCheck.run(makeContext({ snapshot: { resources, forms: [form('http://other.test/post')] } }));
    expect(outcome).toMatchObject({
      passed: false,
      value: { insecure: 5, by_tag: { script: 1, img: 2, iframe: 1, form: 1 } },
      errors: {
        script: ['http://cdn.test/a.js'],
        img: ['http://img.test/b.jpg', 'http://img.test/c.jpg'],
        iframe: ['http://video.test/embed'],
        form: ['http://other.test/post'],
      },
    });
  });

  it('resolves relative references against an http <base>', () => {
    const outcome = mixedContentCheck.run(makeContext({ snapshot: { baseUrl: 'http://example.com/', resources: [ref('script', 'app.js')] } }));
    expect(outcome).toMatchObject({ passed: false, errors: { script: ['http://example.com/app.js'] } });
  });

  it('passes resources upgraded by upgrade-insecure-requests, but not a form posting to another host', () => {
    const resources = [ref('script', 'http://cdn.test/a.js')];
    const upgradedOnly = mixedContentCheck.run(
      makeContext({ page: { headers: { 'content-security-policy': "default-src 'self'; upgrade-insecure-requests" } }, snapshot: { resources } }),
    );
    expect(upgradedOnly).toMatchObject({ passed: true, value: { upgrade_insecure_requests: true, upgraded: 1 } });
    const withForms = mixedContentCheck.run(
      makeContext({
        snapshot: { resources, metas: [cspMeta('upgrade-insecure-requests')], forms: [form('http://example.com/login'), form('http://other.test/x')] },
      }),
    );
    expect(withForms).toMatchObject({ passed: false, errors: { form: ['http://other.test/x'] } });
  });
});
