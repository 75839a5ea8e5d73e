// The performance checks, in the order docs/checks.md lists them.
import type { CheckDefinition } from '../check.ts';
import { textCompressionCheck } from './text-compression.ts';
import { loadTimeCheck } from './load-time.ts';
import { ttfbCheck } from './ttfb.ts';
import { pageSizeCheck } from './page-size.ts';
import { httpRequestsCheck } from './http-requests.ts';
import { imageFormatCheck } from './image-format.ts';
import { imageDimensionsCheck } from './image-dimensions.ts';
import { deferJavascriptCheck } from './defer-javascript.ts';
import { domSizeCheck } from './dom-size.ts';
import { doctypeCheck } from './doctype.ts';
import { http2Check } from './http2.ts';
import { largestContentfulPaintCheck } from './largest-contentful-paint.ts';
import { cumulativeLayoutShiftCheck } from './cumulative-layout-shift.ts';
import { totalBlockingTimeCheck } from './total-blocking-time.ts';
import { firstContentfulPaintCheck } from './first-contentful-paint.ts';
import { pageWeightCheck } from './page-weight.ts';

export const performanceChecks: readonly CheckDefinition[] = [
  textCompressionCheck,
  loadTimeCheck,
  ttfbCheck,
  pageSizeCheck,
  httpRequestsCheck,
  imageFormatCheck,
  imageDimensionsCheck,
  deferJavascriptCheck,
  domSizeCheck,
  doctypeCheck,
  http2Check,
  // The lab audit's (docs/lab.md): null without one.
  largestContentfulPaintCheck,
  cumulativeLayoutShiftCheck,
  totalBlockingTimeCheck,
  firstContentfulPaintCheck,
  pageWeightCheck,
];
