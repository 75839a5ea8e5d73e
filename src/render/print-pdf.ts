// A self-contained HTML page printed to PDF by Chromium, with print media, on A4, with a running
// header (what the report is about) and footer (brand, the report's date, "Page X of Y").
// The page must carry everything it shows (CSS inline, images as data: URIs): every request it would
// make is aborted, so a PDF never reaches the network, whatever the HTML names. It is printed in an
// offline context of the server's browser pool (renderer.ts), which sends what got past nowhere.
import type { BrowserContext } from 'playwright-core';
import type { OfflineLimits } from './render-page.ts';

export interface PdfOptions {
  /** The running header's text: what the report is about (its URL). */
  title: string;
  /** The report's date as people read it; Chromium's own date would be the day of printing. */
  dateLabel: string;
  /** PAGEGRADE_BRAND_NAME: white-label PDFs name the brand, never pagegrade. */
  brandName: string;
}

/** A report of every check prints in a second or two; this long means the browser is stuck. */
const PDF_TIMEOUT_MS = 30_000;

/**
 * What a PDF's context is held to, in the pool: one deadline, and requests (each aborted) far beyond
 * what a page of ours makes (its data: images).
 */
export const PRINT_LIMITS: OfflineLimits = {
  timeoutMs: PDF_TIMEOUT_MS,
  deadlineReason: `The PDF was not ready within ${PDF_TIMEOUT_MS / 1000} s.`,
  maxRequests: 200,
};
/** The header and footer sit in the page margins: they must be this tall at least to show. */
const MARGIN = { top: '18mm', bottom: '18mm', left: '14mm', right: '14mm' };

// The templates are rendered by Chromium outside the page: no page CSS reaches them, and without a
// font size of their own their text is too small to read.
const TEMPLATE_STYLE = 'font: 8pt/1.2 system-ui, sans-serif; color: #4b5563; width: 100%; margin: 0 14mm; display: flex; justify-content: space-between; gap: 8mm;';

/** The templates are HTML; the values in them (a URL, a brand name) are text. */
function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function headerTemplate(options: PdfOptions): string {
  return `<div style="${TEMPLATE_STYLE}"><span style="overflow: hidden; white-space: nowrap; text-overflow: ellipsis;">${escapeText(options.title)}</span></div>`;
}

function footerTemplate(options: PdfOptions): string {
  return `<div style="${TEMPLATE_STYLE}"><span>${escapeText(options.brandName)} · ${escapeText(options.dateLabel)}</span>` +
    '<span style="white-space: nowrap;">Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>';
}

/** Prints `html` in a new tab of `context`, the caller's (its deadline is the pool's: PRINT_LIMITS). */
export async function printPdf(context: BrowserContext, html: string, options: PdfOptions): Promise<Buffer> {
  const page = await context.newPage();
  // data: URLs are the page's own bytes; anything else would be a request out of the browser.
  await page.route('**/*', (route) => (route.request().url().startsWith('data:') ? route.continue() : route.abort('blockedbyclient')));
  await page.setContent(html, { waitUntil: 'load', timeout: PDF_TIMEOUT_MS });
  await page.emulateMedia({ media: 'print' });
  return page.pdf({
    format: 'A4',
    printBackground: true,
    displayHeaderFooter: true,
    headerTemplate: headerTemplate(options),
    footerTemplate: footerTemplate(options),
    margin: MARGIN,
  });
}
