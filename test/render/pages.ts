// Pages for the rendering tests: one whose scripts build what search engines look for, and one
// rendered on the server that scripts leave as it is.
import { goodPage, html, text, type Handler } from '../support/site-server.ts';

/** A single-page app's shell: the title says "Loading", the body is empty until app.js runs. */
const SHELL = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loading…</title>
<script src="/app.js" defer></script></head><body><div id="app">Loading…</div></body></html>`;

/** Builds the page: the title and h1 from data it fetches, a description, a canonical, JSON-LD, text and 12 links. */
const APP_JS = `
fetch('/data.json').then((response) => response.json()).then((data) => {
  document.title = data.title;
  const meta = document.createElement('meta');
  meta.name = 'description';
  meta.content = 'Mountain coffee from small farms, roasted every morning and sent the same day.';
  const canonical = document.createElement('link');
  canonical.rel = 'canonical';
  canonical.href = '/coffee';
  const ld = document.createElement('script');
  ld.type = 'application/ld+json';
  ld.textContent = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: data.title });
  document.head.append(meta, canonical, ld);
  const links = Array.from({ length: 12 }, (_, i) => '<a href="/coffee/' + i + '">Coffee number ' + i + '</a>').join(' ');
  document.getElementById('app').innerHTML =
    '<h1>' + data.heading + '</h1><p>' + 'fresh beans roasted daily in the mountains '.repeat(60) + '</p>' + links;
});`;

export const JS_BUILT_ROUTES: Record<string, Handler> = {
  '/spa': html(SHELL),
  '/app.js': text(APP_JS, 'text/javascript'),
  '/data.json': text(JSON.stringify({ title: 'Mountain coffee, roasted every morning', heading: 'Mountain coffee' }), 'application/json'),
};

/** A well-made page rendered on the server; its script only counts a visit. */
export const SERVER_RENDERED = goodPage().replace('</body>', '<script>document.body.dataset.seen = "1";</script></body>');
