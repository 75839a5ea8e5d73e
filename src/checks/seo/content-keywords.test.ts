import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { contentKeywordsCheck } from './content-keywords.ts';

const run = (title: string | null, words: string[]) =>
  contentKeywordsCheck.run(
    makeContext({ snapshot: { titles: title === null ? [] : [title], text: { wordCount: words.length, charCount: 0, words: new Set(words), emails: [] } } }),
  );

describe('content_keywords', () => {
  it('passes when a significant title word appears in the text', () => {
    expect(run('The Best Sourdough Recipes', ['our', 'sourdough', 'starter'])).toEqual({
      passed: true,
      value: { title_words: ['best', 'sourdough', 'recipes'], found: ['sourdough'] },
      errors: null,
    });
  });

  it('fails when only stop words or short words of the title appear', () => {
    expect(run('How to bake the bread at home', ['how', 'to', 'the', 'at'])).toMatchObject({
      passed: false,
      errors: { not_in_content: ['bake', 'bread', 'home'] },
    });
  });

  it('ignores stop words of other European languages', () => {
    expect(run('Las recetas para el pan', ['las', 'para'])).toMatchObject({ passed: false, value: { title_words: ['recetas', 'pan'] } });
    expect(run('Rezepte für das Brot', ['brot'])).toMatchObject({ passed: true, value: { title_words: ['rezepte', 'brot'] } });
  });

  it('finds hyphenated and elided words whichever way the text was split', () => {
    expect(run('E-commerce tips', ['e-commerce']).passed).toBe(true);
    expect(run("L'amour du pain", ['amour']).passed).toBe(true);
  });

  it('does not apply without a title or when the title has no significant word', () => {
    expect(run(null, ['bread']).passed).toBeNull();
    expect(run('Is it on?', ['bread'])).toMatchObject({ passed: null, value: { title_words: [] } });
    // Japanese has no spaces between words, so a word-by-word comparison means nothing.
    expect(run('東京の天気予報', ['東', '京', 'の']).passed).toBeNull();
  });

  it('keeps the words of spaced scripts that sit next to Chinese or Japanese', () => {
    expect(run('DeepMind新电脑已可利用记忆自学', ['deepmind', '新'])).toMatchObject({ passed: true, value: { title_words: ['deepmind'] } });
  });
});
