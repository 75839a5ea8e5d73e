// A PDF's pages as a reader sees them: pdf.js (legacy build, for Node) reads each page's text and
// draws it onto an @napi-rs/canvas canvas, giving a PNG and where the ink is. Nothing is downloaded:
// both come from npm, the canvas as a prebuilt binary inside its registry package.
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfPage {
  /** The page's text, its items joined by spaces (the running header and footer included). */
  text: string;
  png: Buffer;
  /** Share of the body area (inside the margins) that is not white, 0-1. */
  inkShare: number;
  /** How far down the body's lowest inked row is, as a fraction of the page's height (0: none). */
  lowestInk: number;
}

/** A4 at 72 dpi is 595 x 842 points; the margins are 18 mm top and bottom (print.css, print-pdf.ts). */
const MARGIN_FRACTION = 18 / 297;
/** A pixel darker than this in any channel is ink (anti-aliased white stays white). */
const WHITE = 240;

/** How many pages a PDF has, without drawing them. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    return document.numPages;
  } finally {
    await document.destroy();
  }
}

export async function readPdfPages(bytes: Uint8Array): Promise<PdfPage[]> {
  // pdf.js takes ownership of (and detaches) the buffer it is given.
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: PdfPage[] = [];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
      const viewport = page.getViewport({ scale: 1 });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      // pdf.js draws on a canvas it is given; @napi-rs/canvas implements the 2D context it needs.
      await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
      pages.push({ text, png: canvas.toBuffer('image/png'), ...ink(context.getImageData(0, 0, canvas.width, canvas.height)) });
    }
    return pages;
  } finally {
    await document.destroy();
  }
}

function ink(image: { data: Uint8ClampedArray; width: number; height: number }): { inkShare: number; lowestInk: number } {
  const top = Math.ceil(image.height * MARGIN_FRACTION);
  const bottom = Math.floor(image.height * (1 - MARGIN_FRACTION));
  let inked = 0;
  let lowest = 0;
  for (let y = top; y < bottom; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const at = (y * image.width + x) * 4;
      if (image.data[at] < WHITE || image.data[at + 1] < WHITE || image.data[at + 2] < WHITE) {
        inked += 1;
        lowest = y;
      }
    }
  }
  return { inkShare: inked / ((bottom - top) * image.width), lowestInk: lowest / image.height };
}
