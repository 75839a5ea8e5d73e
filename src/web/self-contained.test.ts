// What a PDF's browser context is given: this server's stylesheets and images inline, nothing it would fetch.
import { describe, expect, it } from 'vitest';
import { selfContained, type AssetLoader } from './self-contained.ts';

const assets: Record<string, { contentType: string; body: string }> = {
  '/assets/app.css?v=1': { contentType: 'text/css; charset=utf-8', body: 'body { color: red; } /* </style><script>x()</script> */' },
  '/assets/print.css?v=1': { contentType: 'text/css', body: '.nav { display: none; }' },
  '/brand/logo?v=2': { contentType: 'image/png', body: 'PNG' },
  '/brand/not-an-image': { contentType: 'text/html', body: '<p>hi</p>' },
};

function loader(asked: string[]): AssetLoader {
  return async (path) => {
    asked.push(path);
    const asset = assets[path];
    return asset ? { contentType: asset.contentType, body: Buffer.from(asset.body) } : null;
  };
}

const PAGE = `<!doctype html><html><head>
<meta http-equiv="refresh" content="5">
<link rel="stylesheet" href="/assets/app.css?v=1">
<link rel="stylesheet" href="/assets/print.css?v=1" media="print">
<link rel="stylesheet" href="//other.example/x.css">
<link rel="icon" href="/assets/favicon.svg?v=1" type="image/svg+xml">
<script src="/assets/report-forms.js?v=1" defer></script>
</head><body><img class="brand-logo" src="/brand/logo?v=2" alt=""><img src="/brand/not-an-image" alt="">
<img src="https://other.example/a.png" alt=""><p>&lt;link rel="stylesheet" href="/assets/app.css"&gt;</p></body></html>`;

describe('selfContained', () => {
  it('puts this server\'s stylesheets and images in the page and drops what would be fetched or run', async () => {
    const asked: string[] = [];
    const page = await selfContained(PAGE, loader(asked));
    expect(page).toContain('<style>body { color: red; }');
    expect(page).toContain('<style media="print">.nav { display: none; }</style>');
    expect(page).toContain(`<img class="brand-logo" src="data:image/png;base64,${Buffer.from('PNG').toString('base64')}" alt="">`);
    // A file that is not an image is not put in an <img>; another host is never asked.
    expect(page).toContain('<img alt="">');
    expect(asked).not.toContain('//other.example/x.css');
    expect(asked).not.toContain('/assets/favicon.svg?v=1');
    // A stylesheet cannot close its <style> element, so what it holds stays CSS text.
    expect(page).toContain('/* <\\/style><script>x()</script> */</style>');
    const outsideStyles = page.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
    for (const gone of [/<link\b/i, /<script\b/i, /http-equiv="refresh"/]) expect(outsideStyles).not.toMatch(gone);
    // Escaped text from a report stays text.
    expect(page).toContain('&lt;link rel="stylesheet" href="/assets/app.css"&gt;');
    expect(page).toMatch(/<head>\n<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">/);
  });
});
