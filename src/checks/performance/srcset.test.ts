import { describe, it, expect } from 'vitest';
import { imageCandidateUrls, parseSrcset } from './srcset.ts';

describe('parseSrcset', () => {
  it('splits candidates and keeps descriptors', () => {
    expect(parseSrcset('a.jpg 1x, b.jpg 2x,c.jpg')).toEqual([
      { url: 'a.jpg', descriptor: '1x' },
      { url: 'b.jpg', descriptor: '2x' },
      { url: 'c.jpg', descriptor: null },
    ]);
  });

  it('keeps commas inside data: URLs and strips a trailing comma', () => {
    expect(parseSrcset('data:image/webp;base64,AAAA 1x, d.png,')).toEqual([
      { url: 'data:image/webp;base64,AAAA', descriptor: '1x' },
      { url: 'd.png', descriptor: null },
    ]);
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
