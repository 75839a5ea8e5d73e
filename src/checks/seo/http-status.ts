import { defineCheck } from '../check.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Obj, Str } from '../value-schema.ts';

const HttpStatusValue = Obj({ status_code: Int(), final_url: Str() });

export const httpStatusCheck = defineCheck<typeof HttpStatusValue>({
  id: 'http_status',
  category: 'seo',
  importance: 'high',
  title: 'The page answers with a success status',
  failureTitle: 'The page answers with an error status',
  description:
    'Search engines index only pages that answer 2xx. A 4xx page is dropped from results; a 5xx makes crawlers slow down and, if it lasts, drop the page too.',
  howToFix:
    'Make the URL answer 200 with its content: restore or redirect (301) a missing page, fix the server error, or link to the right URL instead.',
  labels: {
    status_code: 'Status code', final_url: 'Final URL', status: 'Status code',
  },
  value: HttpStatusValue,
  run({ page }) {
    const value = { status_code: page.statusCode, final_url: page.finalUrl };
    const ok = page.statusCode >= 200 && page.statusCode < 300;
    return outcomeFromErrors(value, ok ? {} : { status: [page.statusCode] });
  },
});
