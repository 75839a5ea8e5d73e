import { describe, expect, it } from 'vitest';
import { parseLlmsTxt } from './llms-txt.ts';

const FILE = 'https://example.com/llms.txt';

describe('parseLlmsTxt', () => {
  it('reads the title, the summary and the sections of links, resolving relative URLs', () => {
    const parsed = parseLlmsTxt(
      '\uFEFF# FastHTML\n\n> A Python library for web apps.\n\nSome prose about it.\n\n## Docs\n\n- [Quick start](/docs/start.md): begin here\n* [API](https://example.com/api.md)\n\n## Optional\n- [Blog](blog.md)\n',
      FILE,
    );
    expect(parsed).toEqual({
      title: 'FastHTML',
      summary: 'A Python library for web apps.',
      sections: [
        { name: 'Docs', line: 7, links: [{ name: 'Quick start', url: 'https://example.com/docs/start.md' }, { name: 'API', url: 'https://example.com/api.md' }] },
        { name: 'Optional', line: 12, links: [{ name: 'Blog', url: 'https://example.com/blog.md' }] },
      ],
      extraTitles: [],
      malformedLinks: [],
      firstLine: null,
    });
  });

  it('notices a file that does not start with a title', () => {
    const parsed = parseLlmsTxt('Welcome to our site!\n# Title\n', FILE);
    expect(parsed.title).toBeNull();
    expect(parsed.firstLine).toEqual({ line: 1, text: 'Welcome to our site!' });
    expect(parsed.extraTitles).toEqual([{ line: 2, text: '# Title' }]);
  });

  it('lists section items that are not [name](url) links', () => {
    const parsed = parseLlmsTxt('# T\n## Pages\n- Home page: https://example.com/\n- [Docs](http://exa mple.com/)\n- [Good](/good)\n', FILE);
    expect(parsed.malformedLinks).toEqual([
      { line: 3, text: '- Home page: https://example.com/' },
      { line: 4, text: '- [Docs](http://exa mple.com/)' },
    ]);
    expect(parsed.sections[0].links).toEqual([{ name: 'Good', url: 'https://example.com/good' }]);
  });

  it('takes no summary that does not follow the title', () => {
    expect(parseLlmsTxt('# T\nIntro\n> later quote\n', FILE).summary).toBeNull();
  });
});
