import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Script } from '../../parse/page-snapshot.ts';
import { deferJavascriptCheck } from './defer-javascript.ts';

const script = (extra: Partial<Script>): Script => ({ src: null, type: null, async: false, defer: false, inHead: true, tagStart: 0, tagEnd: 0, ...extra });
const run = (scripts: Script[]) => deferJavascriptCheck.run(makeContext({ snapshot: { scripts } }));

describe('defer_javascript', () => {
  it('does not apply without external scripts (inline ones and data blocks do not count)', () => {
    const outcome = run([script({}), script({ src: '/t.html', type: 'text/template' }), script({ src: '/x.json', type: 'application/ld+json' })]);
    expect(outcome).toMatchObject({ passed: null, reason: 'the page has no external scripts' });
  });

  it('passes defer, async and module scripts', () => {
    const outcome = run([
      script({ src: '/a.js', defer: true }),
      script({ src: '/b.js', async: true }),
      script({ src: '/c.js', type: 'module' }),
    ]);
    expect(outcome).toMatchObject({ passed: true, value: { external_scripts: 3, blocking: 0 } });
  });

  it('fails blocking classic scripts, including explicit JavaScript types', () => {
    const outcome = run([
      script({ src: '/a.js', defer: true }),
      script({ src: '/jquery.js', type: 'text/javascript' }),
      script({ src: 'https://cdn.example.net/lib.js', inHead: false }),
    ]);
    expect(outcome).toMatchObject({
      passed: false,
      value: { external_scripts: 3, blocking: 2, blocking_in_head: 1 },
      errors: { blocking_scripts: [{ src: 'https://example.com/jquery.js' }, { src: 'https://cdn.example.net/lib.js' }] },
    });
  });
});
