import { describe, expect, it } from 'vitest';
import { looksLikeHtml } from './html-sniff.ts';

describe('looksLikeHtml', () => {
  it.each(['<!DOCTYPE html><html>', '  \n<html lang="en">', '<HEAD>', '\ufeff<!doctype html>', '<p>hello', '<!-- comment -->', '<a href="/">x</a>'])(
    '%j looks like HTML',
    (text) => {
      expect(looksLikeHtml(Buffer.from(text))).toBe(true);
    },
  );

  it.each(['%PDF-1.7', '{"json": true}', 'plain text', '<abbr>not a pattern</abbr>', '<?xml version="1.0"?><rss/>', ''])(
    '%j does not',
    (text) => {
      expect(looksLikeHtml(Buffer.from(text))).toBe(false);
    },
  );
});
