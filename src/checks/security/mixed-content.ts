import { capItems, defineCheck, notApplicable } from '../check.ts';
import { resourceTargets } from '../../parse/link-urls.ts';
import { displayUrl } from '../performance/display-url.ts';
import { upgradesInsecureRequests } from './content-security-policy.ts';
import { formSubmissionUrl } from './form-submission.ts';
import { isHttpsPage } from './page-scheme.ts';
import { Bool, Dict, Int, Obj } from '../value-schema.ts';

/** Hosts browsers treat as potentially trustworthy even over http, so never mixed content. */
const LOOPBACK_HOSTS = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$|\.localhost$/;

const MixedContentValue = Obj({ insecure: Int(), by_tag: Dict(Int(), 'insecure URLs by tag name'), upgrade_insecure_requests: Bool(), upgraded: Int() });

export const mixedContentCheck = defineCheck<typeof MixedContentValue>({
  id: 'mixed_content',
  category: 'security',
  importance: 'medium',
  title: 'The page loads nothing over plain http',
  failureTitle: 'The https page loads content over plain http',
  description:
    'An https page that loads scripts, styles, frames or media over http:// can be tampered with on the way; browsers block such scripts and frames (breaking the page) and warn about the rest.',
  howToFix:
    'Change the listed http:// URLs to https:// (or make them relative), or send `Content-Security-Policy: upgrade-insecure-requests` once every resource is available over https.',
  labels: {
    insecure: 'Insecure URLs', by_tag: 'By tag', upgrade_insecure_requests: 'upgrade-insecure-requests set',
    upgraded: 'Upgraded to https by the browser', script: 'Scripts over http', link: 'Stylesheets and other links over http',
    img: 'Images over http', iframe: 'Frames over http', video: 'Videos over http', audio: 'Audio over http',
    source: 'Media sources over http', track: 'Text tracks over http', embed: 'Embeds over http', object: 'Objects over http',
    input: 'Image inputs over http', form: 'Forms sending to http',
  },
  value: MixedContentValue,
  run(ctx) {
    const { snapshot } = ctx;
    if (!isHttpsPage(ctx.page)) return notApplicable('the page is not served over https');
    // With upgrade-insecure-requests the browser fetches these over https instead.
    const upgraded = upgradesInsecureRequests(ctx);
    const insecure = new Map<string, Set<string>>();
    const add = (tag: string, url: string) => {
      const urls = insecure.get(tag) ?? new Set<string>();
      insecure.set(tag, urls.add(url));
    };
    let upgradedCount = 0;
    const { resources } = snapshot;
    const targets = resourceTargets(snapshot);
    for (let i = 0; i < resources.length; i++) {
      const ref = resources[i];
      if (ref.url.trim() === '') continue;
      if (targets.protocols[i] !== 'http:' || LOOPBACK_HOSTS.test(targets.hostnames[i])) continue;
      if (upgraded) upgradedCount++;
      else add(ref.tag, displayUrl(ref.url, snapshot.baseUrl));
    }
    for (const form of snapshot.forms) {
      const url = formSubmissionUrl(form, ctx);
      if (url?.protocol === 'http:' && !LOOPBACK_HOSTS.test(url.hostname)) add('form', url.href);
    }

    const byTag: Record<string, number> = {};
    const errors: Record<string, string[]> = {};
    for (const [tag, urls] of insecure) {
      byTag[tag] = urls.size;
      errors[tag] = capItems([...urls]);
    }
    const total = Object.values(byTag).reduce((sum, count) => sum + count, 0);
    const value = { insecure: total, by_tag: byTag, upgrade_insecure_requests: upgraded, upgraded: upgradedCount };
    if (total === 0) return { passed: true, value, errors: null };
    return { passed: false, value, errors };
  },
});
