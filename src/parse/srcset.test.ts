import { describe, expect, it } from 'vitest';
import { srcsetUrls } from './srcset.ts';

describe('srcsetUrls', () => {
  it('takes the URL of each candidate and drops the descriptors', () => {
    expect(srcsetUrls('a.jpg 1x, b.jpg 2x')).toEqual(['a.jpg', 'b.jpg']);
    expect(srcsetUrls('  small.png 320w,\n large.png 1024w  ')).toEqual(['small.png', 'large.png']);
  });

  it('accepts candidates without descriptors, separated by commas with or without spaces', () => {
    expect(srcsetUrls('a.jpg, b.jpg')).toEqual(['a.jpg', 'b.jpg']);
    expect(srcsetUrls('a.jpg,,, b.jpg,')).toEqual(['a.jpg', 'b.jpg']);
    expect(srcsetUrls('only.jpg')).toEqual(['only.jpg']);
  });

  it('keeps commas inside URLs and inside parenthesised descriptors', () => {
    expect(srcsetUrls('data:image/png;base64,AAAA 1x, b.png 2x')).toEqual(['data:image/png;base64,AAAA', 'b.png']);
    expect(srcsetUrls('a.jpg (a, b) 1x, b.jpg 2x')).toEqual(['a.jpg', 'b.jpg']);
  });

  it('gives nothing for an empty or blank value', () => {
    expect(srcsetUrls('')).toEqual([]);
    expect(srcsetUrls(' , ')).toEqual([]);
  });
});
