// The schema of a report's and a run's `lab` (docs/lab.md, "Report: `lab`"): what a lab audit measured,
// with the accessibility checks' summary; null when no lab audit ran or it could not observe the page.
// And the `lab` and `lab_profile` parameters that ask for one.
import { Type } from '@sinclair/typebox';
import { oneOf } from './common.ts';
import { LAB_PROFILES, RESOURCE_TYPES } from '../lab/lab-types.ts';

const count = Type.Integer({ minimum: 0 });
const milliseconds = (description: string) => Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description });

const Metrics = Type.Object(
  {
    ttfb_ms: milliseconds('The final document\'s responseStart, redirects included; null when it never answered.'),
    fcp_ms: milliseconds('First contentful paint; null when nothing contentful was painted.'),
    lcp_ms: milliseconds('The last largest-contentful-paint candidate of the observation; null when nothing contentful was painted.'),
    cls: Type.Number({ minimum: 0, description: 'The largest session window of layout shifts (1 s gaps, 5 s at most), rounded to 3 decimals; 0 when nothing shifted.' }),
    tbt_ms: milliseconds('Total blocking time: each main-thread task\'s part over 50 ms after FCP, summed; null when nothing contentful was painted.'),
    load_ms: milliseconds('The load event\'s start; null when it did not come within PAGEGRADE_LAB_TIMEOUT_MS.'),
  },
  { description: 'Integer milliseconds from the navigation\'s start (performance.timeOrigin).' },
);

const Element = Type.Object(
  {
    selector: Type.String({ description: 'A CSS selector that finds the element in the loaded DOM (its #id when it has one).' }),
    snippet: Type.String({ description: 'Its start tag as in the DOM, at most 200 characters.' }),
  },
  { description: 'The element of the LCP candidate.' },
);

const LayoutShift = Type.Object({
  value: Type.Number({ minimum: 0, description: 'Rounded to 3 decimals.' }),
  selector: Type.Union([Type.String(), Type.Null()], { description: 'The selector of its first source element; null when the element is gone.' }),
});

const LongTask = Type.Object({ start_ms: count, duration_ms: count });

const ResourceCount = Type.Object({
  requests: count,
  bytes: Type.Integer({ minimum: 0, description: 'As received over the network: headers plus the body as sent (compressed when it was).' }),
});

const Resources = Type.Object(
  {
    ...ResourceCount.properties,
    by_type: Type.Object(Object.fromEntries(RESOURCE_TYPES.map((type) => [type, ResourceCount])), {
      description: 'Always the six types (other: XHR, fetch, media, websockets, manifests, everything else); they add up to the totals.',
    }),
  },
  { description: 'Every request the browser made during the observation (each redirect hop is one; data: and blob: URLs are not).' },
);

const Accessibility = Type.Object(
  {
    score: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
      description: 'The report\'s accessibility category score; null when no accessibility rule applied.',
    }),
    violations: Type.Integer({ minimum: 0, description: 'a11y_ checks that failed.' }),
    rules_checked: Type.Integer({ minimum: 0, description: 'a11y_ checks that applied (passed or failed).' }),
  },
  { description: 'What the accessibility checks made of axe-core\'s verdicts (the a11y_ results have the details).' },
);

const LabObject = Type.Object(
  {
    profile: oneOf(LAB_PROFILES, { description: 'The screen, CPU and network the page was loaded under.' }),
    metrics: Metrics,
    lcp_element: Type.Union([Element, Type.Null()], { description: 'null when there is no LCP or its element is gone.' }),
    layout_shifts: Type.Array(LayoutShift, { maxItems: 5, description: 'The 5 largest shifts, largest first.' }),
    long_tasks: Type.Array(LongTask, { maxItems: 5, description: 'The 5 longest main-thread tasks over 50 ms, longest first.' }),
    resources: Resources,
    accessibility: Accessibility,
  },
  { $id: 'Lab', description: 'What a lab audit measured: the page loaded cold in Chromium under a phone\'s or a desktop\'s screen, CPU and network.' },
);

export const Lab = Type.Union([LabObject, Type.Null()], {
  description: 'With lab=1: what the lab audit measured; null when none ran in this run, or it could not observe the page (the lab checks say why).',
});

/** The lab parameter of create and regenerate (and of crawls). */
export const lab = oneOf([0, 1] as const, {
  description:
    '1: also make a lab audit: load the page cold in headless Chromium under lab_profile and measure its Core Web Vitals, ' +
    'page weight and accessibility (lab, and the lab and a11y_ checks); a 422 when the server has no browser.',
  default: 0,
});

/** The profile beside lab=1; validated whenever it is sent. */
export const labProfile = oneOf(LAB_PROFILES, {
  description: 'With lab=1: mobile (a phone\'s screen, 4x slower CPU, slow 4G) or desktop (docs/lab.md, "The profiles").',
  default: 'mobile',
});
