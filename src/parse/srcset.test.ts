import { describe, expect, it } from 'vitest';
import { imageCandidateUrls, parseSrcset } from './srcset.ts';

const urls = (srcset: string) => parseSrcset(srcset).map((candidate) => candidate.url);

describe('parseSrcset', () => {
  it('splits candidates and keeps descriptors', () => {
    expect(parseSrcset('a.jpg 1x, b.jpg 2x,c.jpg')).toEqual([
      { url: 'a.jpg', descriptor: '1x' },
      { url: 'b.jpg', descriptor: '2x' },
      { url: 'c.jpg', descriptor: null },
    ]);
    expect(parseSrcset('  small.png 320w,\n large.png 1024w  ')).toEqual([
      { url: 'small.png', descriptor: '320w' },
      { url: 'large.png', descriptor: '1024w' },
    ]);
  });

  it('accepts candidates without descriptors, separated by commas with or without spaces', () => {
    expect(urls('a.jpg, b.jpg')).toEqual(['a.jpg', 'b.jpg']);
    expect(urls('a.jpg,,, b.jpg,')).toEqual(['a.jpg', 'b.jpg']);
    expect(urls('only.jpg')).toEqual(['only.jpg']);
  });

  it('keeps commas inside data: URLs and strips a trailing comma', () => {
    expect(parseSrcset('data:image/webp;base64,AAAA 1x, d.png,')).toEqual([
      { url: 'data:image/webp;base64,AAAA', descriptor: '1x' },
      { url: 'd.png', descriptor: null },
    ]);
  });

  it('keeps commas inside parenthesised descriptors', () => {
    expect(parseSrcset('a.jpg (a, b) 1x, b.jpg 2x')).toEqual([
      { url: 'a.jpg', descriptor: '(a, b) 1x' },
      { url: 'b.jpg', descriptor: '2x' },
    ]);
  });

  it('splits on ASCII whitespace only, as the HTML standard does', () => {
    // a no-break space is part of the URL, not a separator
    expect(urls('a\u00a0b.jpg 1x')).toEqual(['a\u00a0b.jpg']);
  });

  it('gives nothing for an empty or blank value', () => {
    expect(parseSrcset('')).toEqual([]);
    expect(parseSrcset(' , ')).toEqual([]);
  });
});

describe('imageCandidateUrls', () => {
  it('drops src when the srcset has width descriptors or a 1x candidate', () => {
    expect(imageCandidateUrls('a.jpg', 'a.webp 400w, b.webp 800w')).toEqual(['a.webp', 'b.webp']);
    expect(imageCandidateUrls('a.jpg', 'a.webp')).toEqual(['a.webp']);
  });

  it('keeps src as the 1x candidate next to a 2x-only srcset', () => {
    expect(imageCandidateUrls('a.jpg', 'a.webp 2x')).toEqual(['a.webp', 'a.jpg']);
  });

  it('gives nothing for an img without src or srcset', () => {
    expect(imageCandidateUrls('  ', null)).toEqual([]);
  });
});
