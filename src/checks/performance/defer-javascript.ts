import { defineCheck, notApplicable } from '../check.ts';
import { firstDistinctLocated } from '../locate.ts';
import type { Script } from '../../parse/page-snapshot.ts';
import { displayUrl } from './display-url.ts';
import { Int, Obj } from '../value-schema.ts';

/** MIME types that make a script classic JavaScript (HTML "JavaScript MIME type"); any other type is a data block. */
const JAVASCRIPT_TYPES = new Set([
  'application/ecmascript', 'application/javascript', 'application/x-ecmascript', 'application/x-javascript',
  'text/ecmascript', 'text/javascript', 'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2',
  'text/javascript1.3', 'text/javascript1.4', 'text/javascript1.5', 'text/jscript', 'text/livescript',
  'text/x-ecmascript', 'text/x-javascript',
]);

const DeferJavascriptValue = Obj({ external_scripts: Int(), blocking: Int(), blocking_in_head: Int() });

export const deferJavascriptCheck = defineCheck<typeof DeferJavascriptValue>({
  id: 'defer_javascript',
  category: 'performance',
  importance: 'low',
  title: 'External scripts do not block parsing',
  failureTitle: 'External scripts block parsing',
  description:
    'A script without `defer` or `async` stops the browser from building the page until it has downloaded and run, delaying what visitors see.',
  howToFix:
    'Add `defer` to external scripts (keeps their order) or `async` to independent ones such as analytics; ES modules (`type="module"`) are deferred already.',
  labels: {
    external_scripts: 'External scripts', blocking: 'Render-blocking scripts', blocking_in_head: 'Render-blocking scripts in the head',
    blocking_scripts: 'Render-blocking scripts', src: 'Script',
  },
  value: DeferJavascriptValue,
  run({ page, snapshot }) {
    const external = snapshot.scripts.filter((script) => script.src?.trim() && executes(script));
    if (external.length === 0) return notApplicable('the page has no external scripts');
    const blocking = external.filter((script) => !script.defer && !script.async && !isModule(script));
    const value = {
      external_scripts: external.length,
      blocking: blocking.length,
      blocking_in_head: blocking.filter((script) => script.inHead).length,
    };
    if (blocking.length === 0) return { passed: true, value, errors: null };
    return {
      passed: false,
      value,
      errors: {
        blocking_scripts: firstDistinctLocated(blocking, (script) => displayUrl(script.src ?? '', snapshot.baseUrl), (script) => script, 'src', page),
      },
    };
  },
});

function typeEssence(script: Script): string {
  return (script.type ?? '').split(';')[0].trim().toLowerCase();
}

function isModule(script: Script): boolean {
  return typeEssence(script) === 'module';
}

function executes(script: Script): boolean {
  const type = typeEssence(script);
  return type === '' || type === 'module' || JAVASCRIPT_TYPES.has(type);
}
