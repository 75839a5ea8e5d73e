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
];
