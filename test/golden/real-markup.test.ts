// Four rule fixes, each on the real markup that exposed it (comparing verdicts with Lighthouse 12 on
// the saved corpus pages, ../shared/corpus/pages), through the whole pipeline from a loopback site. The
// snippets are copied from the named corpus page; the page around them is minimal.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, htmlPage, startGoldenSite, type GoldenSite } from './support/golden-site.ts';

const analyze = analyzer();
const sites: GoldenSite[] = [];

beforeEach(() => clearOriginFactsCache());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});

/** Analyses a small page whose body is `body`, served from its own loopback site. */
async function analyzeBody(body: string) {
  const page = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Real markup golden page</title></head><body>${body}</body></html>`;
  const site = await startGoldenSite({ '/article': htmlPage(page) });
  sites.push(site);
  return analyze(site.url('/article'));
}

describe('crawlable_anchors: an <a> without href that carries link-only attributes', () => {
  it('reports the lead-image link of mercury-gothamist.com (target and rel, no href) as missing_href', async () => {
    // mercury-gothamist.com.html, lines 317-325: a link whose URL only script fills in.
    const { results } = await analyzeBody(`<figure class="image-with-caption gothamist">
  <div class="image-with-caption-wrapper">
    <div class="image-with-caption-image"><a target="_blank" rel="noopener noreferrer"
        class="image-with-caption-image-link disabled">
        <div data-v-32dddd2b=""> <img srcset=""
            src="https://cms.prod.nypr.digital/images/42584/fill-640x426|format-jpeg|jpegquality-80/"
            width="640" height="426"
            alt="The basement at 80 New York Avenue in Crown Heights is one of many once-certified fallout shelters that you probably wouldn&apos;t want to spend much time in."
            loading="lazy" class="image" data-v-32dddd2b=""></div>
      </a></div></div></figure>
<p><a href="/news">More news from Gothamist</a></p>`);

    expect(results.crawlable_anchors.passed).toBe(false);
    expect(results.crawlable_anchors.value).toMatchObject({ anchors_checked: 2, uncrawlable: 1, missing_href: 1 });
    expect(results.crawlable_anchors.errors).toMatchObject({ missing_href: [{ href: null, attributes: ['target', 'rel'] }] });
  });

  it('reports the share buttons of mercury-fandom.wikia.com (target only) as missing_href', async () => {
    // mercury-fandom.wikia.com.html: `<a class="reddit-btn" target="_blank">`
    const { results } = await analyzeBody('<p>Share: <a class="reddit-btn" target="_blank">reddit</a></p>');
    expect(results.crawlable_anchors.errors).toMatchObject({ missing_href: [{ text: 'reddit', attributes: ['target'] }] });
  });
});

describe('link_text: a link whose href is empty', () => {
  it('skips the "Read more" of readability-herald-sun-1 (href="") like a same-page # link', async () => {
    // readability-herald-sun-1.html, lines 666-669.
    const { results } = await analyzeBody(`<div id="read-more">
    <div id="read-more-link">
        <a href="">Read more</a>
    </div>
</div>
<p><a href="/news/opinion">More opinion from the Herald Sun</a></p>`);

    expect(results.link_text).toMatchObject({ passed: true, value: { links_checked: 1, generic: 0 } });
    // ... while crawlable_anchors still reports the empty href
    expect(results.crawlable_anchors.errors).toMatchObject({ empty_href: [{ href: '', text: 'Read more' }] });
  });
});

describe('image_keywords: an alt of only whitespace', () => {
  it('fails the logo of mercury-sciencefly.com (alt=" ") as blank_alt', async () => {
    // mercury-sciencefly.com.html, line 1.
    const { results } = await analyzeBody(
      '<a href="/"><img src="http://sciencefly.com/wp-content/uploads/2013/10/HPlogo31.png" alt=" " width="240" height="65"></a>',
    );
    expect(results.image_keywords).toMatchObject({ passed: false, value: { blank_alt: 1, missing_alt: 0, empty_alt: 0 } });
    expect(results.image_keywords.errors).toEqual({
      blank_alt: [
        {
          src: 'http://sciencefly.com/wp-content/uploads/2013/10/HPlogo31.png',
          line: 1,
          snippet: '<img src="http://sciencefly.com/wp-content/uploads/2013/10/HPlogo31.png" alt=" " width="240" height="65">',
        },
      ],
    });
  });
});

describe('image_keywords: hidden images are not judged', () => {
  it('skips the Outbrain pixel of mercury-www.asahi.com (display:none on the img itself)', async () => {
    // mercury-www.asahi.com.html, line 218.
    const { results } = await analyzeBody(`<img src="//amplifypixel.outbrain.com/pixel?mid=000bc02931c2f0d9c9d5466575244b5d43" style="display:none">
<img src="/team.jpg" alt="The team at practice" width="640" height="360">`);
    expect(results.image_keywords).toMatchObject({ passed: true, value: { images: 2, hidden: 1, missing_alt: 0 } });
  });

  it('skips the splash image of mercury-japan.cnet.com (display:none on an ancestor)', async () => {
    // mercury-japan.cnet.com.html, lines 87-94.
    const { results } = await analyzeBody(`<div id="splash" style="display:none;">
    <div id="splash-header">
        <a href="" id="splash-continue-link">Continue to CNET Japan</a>
    </div>
    <div id="splash-container">
        <a href="" target="_blank" id="splash-link"><img src="" border="0" id="splash-image"></a>
    </div>
</div>`);
    expect(results.image_keywords).toMatchObject({ passed: null, value: { images: 1, hidden: 1 } });
  });

  it('skips the doodle of mercury-www.youtube.com (hidden attribute on an ancestor)', async () => {
    // mercury-www.youtube.com.html, lines 565-570.
    const { results } = await analyzeBody(`<ytd-yoodle-renderer class="style-scope ytd-topbar-logo-renderer" hidden="">
  <picture class="style-scope ytd-yoodle-renderer">
    <source type="image/webp" class="style-scope ytd-yoodle-renderer" srcset="">
    <img class="style-scope ytd-yoodle-renderer" src="">
  </picture>
</ytd-yoodle-renderer>
<img src="/logo.svg" alt="YouTube">`);
    expect(results.image_keywords).toMatchObject({ passed: true, value: { images: 2, hidden: 1, missing_alt: 0 } });
  });
});
