import { describe, it, expect } from 'vitest';
import { classifyImageUrl } from './image-url-format.ts';

const base = 'https://example.com/dir/page';

describe('classifyImageUrl', () => {
  it.each([
    ['photo.avif', 'modern'],
    ['/img/Photo.WEBP?v=3', 'modern'],
    ['logo.svg#icon', 'modern'],
    ['data:image/svg+xml;utf8,<svg/>', 'modern'],
    ['data:image/webp;base64,AAAA', 'modern'],
    ['https://cdn.example.com/image?id=3&format=webp', 'modern'],
    ['https://images.example.com/photo.jpg?fm=avif', 'modern'],
    ['https://x.imgix.net/photo.jpg?auto=compress,format', 'modern'],
    ['https://res.cloudinary.com/demo/image/upload/f_auto,q_auto/sample.jpg', 'modern'],
    ['photo.jpg', 'legacy'],
    ['/a/b.PNG?size=2', 'legacy'],
    ['anim.gif', 'legacy'],
    ['data:image/png;base64,AAAA', 'legacy'],
    ['https://cdn.example.com/image?id=3&fm=jpg', 'legacy'],
    ['https://cdn.example.com/image?id=3', 'unknown'],
    ['/images/photo', 'unknown'],
    ['http://[bad', 'unknown'],
  ])('%s is %s', (url, expected) => {
    expect(classifyImageUrl(url, base)).toBe(expected);
  });

  it('reads format parameters however their names are escaped', () => {
    expect(classifyImageUrl('/a.jpg?f%6D=webp', base)).toBe('modern');
    expect(classifyImageUrl('/a?%61uto=format', base)).toBe('modern');
    expect(classifyImageUrl('/a?w=640&q=75', base)).toBe('unknown');
    expect(classifyImageUrl('/a?form=webp&fm=png', base)).toBe('legacy');
  });
});
