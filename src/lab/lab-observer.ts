// What runs inside the page during a lab audit: the observer, installed before any of the page's
// scripts (context.addInitScript), which records paint, largest-contentful-paint, layout-shift and
// longtask entries as they come, and the two reads the audit makes of it: a probe for the quiet window
// and the final read. The judging is lab-metrics.ts's, in Node.
//
// Plain JavaScript in strings, not functions serialised from here: what the TypeScript tooling adds to a
// compiled function (name helpers) does not exist in the page.
//
// The observer keeps elements, not selectors: a selector is computed only at the end, on the DOM as
// loaded (the element of an early LCP candidate may have moved or gone). It keeps the LCP candidate's
// element, and the first source element of the 5 largest shifts only, so a page that shifts all the
// time holds on to 5 elements, not thousands. Entries past MAX_ENTRIES of a kind are not recorded.

import { MAX_ENTRIES, MAX_SNIPPET_CHARS } from './lab-metrics.ts';

/** Where the observer keeps its record in the page: a property the page's scripts cannot replace. */
const RECORD = '__pagegradeLab';

/** Installed in every document the page loads; records only in the top frame's. */
export const OBSERVER_SCRIPT = `(() => {
  if (window.top !== window || Object.prototype.hasOwnProperty.call(window, '${RECORD}')) return;
  const MAX_ENTRIES = ${MAX_ENTRIES};
  const KEPT_SHIFTS = 5;
  const record = { fcp: null, lcp: null, lcpElement: null, shifts: [], largestShifts: [], tasks: [], lastTaskEnd: 0 };
  Object.defineProperty(window, '${RECORD}', { value: record, enumerable: false, writable: false, configurable: false });
  const observe = (type, onEntry) => {
    try {
      new PerformanceObserver((list) => { for (const entry of list.getEntries()) onEntry(entry); }).observe({ type, buffered: true });
    } catch (error) {}
  };
  observe('paint', (entry) => {
    if (entry.name === 'first-contentful-paint' && record.fcp === null) record.fcp = entry.startTime;
  });
  observe('largest-contentful-paint', (entry) => {
    record.lcp = entry.startTime;
    record.lcpElement = entry.element || null;
  });
  observe('layout-shift', (entry) => {
    if (record.shifts.length >= MAX_ENTRIES) return;
    const source = entry.sources && entry.sources[0];
    const shift = { start: entry.startTime, value: entry.value, hadRecentInput: entry.hadRecentInput, node: (source && source.node) || null };
    record.shifts.push(shift);
    record.largestShifts.push(shift);
    // Largest first, the earlier of equal ones first (as lab-metrics.ts lists them): past 5, its element goes.
    record.largestShifts.sort((a, b) => b.value - a.value || a.start - b.start);
    while (record.largestShifts.length > KEPT_SHIFTS) record.largestShifts.pop().node = null;
  });
  observe('longtask', (entry) => {
    record.lastTaskEnd = Math.max(record.lastTaskEnd, entry.startTime + entry.duration);
    if (record.tasks.length < MAX_ENTRIES) record.tasks.push({ start: entry.startTime, duration: entry.duration });
  });
})();`;

/** The page's clock and when its last long task ended: the quiet window's half that only the page knows. */
export const QUIET_PROBE_SCRIPT = `(() => {
  const record = window.${RECORD};
  return { now: performance.now(), lastTaskEnd: record ? record.lastTaskEnd : 0 };
})()`;

/**
 * The observer's record with a selector and start tag for each element still in the DOM; null when the
 * document never had the observer (it never loaded). Shapes as lab-metrics.ts's RawObservation.
 */
export const COLLECT_SCRIPT = `(() => {
  const record = window.${RECORD};
  if (!record) return null;
  // Elements are copied into a document that loads nothing, so reading a start tag fetches no image.
  const inert = document.implementation.createHTMLDocument('');
  const live = (node) => {
    const element = node && node.nodeType === 1 ? node : node && node.parentElement;
    return element && element.isConnected ? element : null;
  };
  const findsOnly = (root, css, element) => {
    try {
      const found = root.querySelectorAll(css);
      return found.length === 1 && found[0] === element;
    } catch (error) {
      return false;
    }
  };
  // The shortest chain of steps up from the element that finds it alone: an id when it is the only
  // one, else its tag with :nth-of-type among siblings of the same tag.
  const selectorOf = (element) => {
    const root = element.getRootNode();
    const steps = [];
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      const tag = CSS.escape(node.localName);
      const byId = node.id ? tag + '#' + CSS.escape(node.id) : null;
      if (byId && findsOnly(root, byId, node)) {
        steps.unshift(byId);
      } else {
        let index = 0;
        let same = 0;
        for (let sibling = node.parentElement ? node.parentElement.firstElementChild : node; sibling; sibling = sibling.nextElementSibling) {
          if (sibling.localName !== node.localName) continue;
          same += 1;
          if (sibling === node) index = same;
        }
        steps.unshift(same > 1 ? tag + ':nth-of-type(' + index + ')' : tag);
      }
      const css = steps.join(' > ');
      if (findsOnly(root, css, element)) return css;
    }
    return steps.join(' > ');
  };
  const startTag = (element) => {
    const copy = inert.importNode(element, false);
    let html = copy.outerHTML;
    const end = '</' + copy.localName + '>';
    if (html.endsWith(end)) html = html.slice(0, -end.length);
    return html.slice(0, ${MAX_SNIPPET_CHARS});
  };
  const describe = (node) => {
    const element = live(node);
    return element ? { selector: selectorOf(element), snippet: startTag(element) } : null;
  };
  const navigation = performance.getEntriesByType('navigation')[0];
  return {
    now: performance.now(),
    timeOrigin: performance.timeOrigin,
    responseStart: navigation ? navigation.responseStart : null,
    loadEventStart: navigation ? navigation.loadEventStart : null,
    fcp: record.fcp,
    lcp: record.lcp === null ? null : { time: record.lcp, element: describe(record.lcpElement) },
    shifts: record.shifts.map((shift) => {
      const found = shift.node ? describe(shift.node) : null;
      return { start: shift.start, value: shift.value, hadRecentInput: shift.hadRecentInput, selector: found ? found.selector : null };
    }),
    tasks: record.tasks,
  };
})()`;
