import { defineCheck, notApplicable } from '../check.ts';
import { parseHsts } from '../../parse/headers/hsts.ts';
import { isHttpsPage } from './page-scheme.ts';
import { Bool, Int, Nullable, Num, Obj, Opt, Str } from '../value-schema.ts';

const HstsValue = Obj({
  header: Nullable(Str()),
  max_age: Opt(Int()),
  include_subdomains: Opt(Bool()),
  preload: Opt(Bool()),
  min_max_age: Num(),
});

export const hstsCheck = defineCheck<typeof HstsValue>({
  id: 'hsts',
  category: 'security',
  importance: 'low',
  title: 'HSTS is on, with a long max-age',
  failureTitle: 'HSTS is missing or too short',
  description:
    'Strict-Transport-Security tells browsers to use only https for the site, so a visitor cannot be downgraded to http by an attacker on the network. A max-age under a year leaves gaps.',
  howToFix:
    'Send `Strict-Transport-Security: max-age=31536000; includeSubDomains` on https responses (add `preload` and submit the domain to hstspreload.org once every subdomain serves https).',
  labels: {
    header: 'Strict-Transport-Security', max_age: 'max-age (seconds)', include_subdomains: 'includeSubDomains', preload: 'preload',
    min_max_age: 'Smallest max-age wanted (seconds)', missing: 'No Strict-Transport-Security header', invalid: 'Invalid header',
    max_age_too_short: 'max-age too short (seconds)',
  },
  value: HstsValue,
  run({ page, thresholds }) {
    if (!isHttpsPage(page)) return notApplicable('the page is not served over https (browsers ignore HSTS over http)');
    const header = page.headers['strict-transport-security'] ?? null;
    const minimum = thresholds.min_hsts_max_age_s;
    if (header === null || header.trim() === '') {
      return { passed: false, value: { header: null, min_max_age: minimum }, errors: { missing: ['Strict-Transport-Security'] } };
    }
    const policy = parseHsts(header);
    if (typeof policy === 'string') {
      return { passed: false, value: { header, min_max_age: minimum }, errors: { invalid: [`${policy}: ${header}`] } };
    }
    const value = {
      header,
      max_age: policy.maxAge,
      include_subdomains: policy.includeSubDomains,
      preload: policy.preload,
      min_max_age: minimum,
    };
    if (policy.maxAge >= minimum) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { max_age_too_short: [policy.maxAge] } };
  },
});
