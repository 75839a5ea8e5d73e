import { defineCheck } from '../check.ts';
import { isHttpsPage } from './page-scheme.ts';
import { Obj, Str } from '../value-schema.ts';

const HttpsEncryptionValue = Obj({ final_url: Str(), requested_url: Str() });

export const httpsEncryptionCheck = defineCheck<typeof HttpsEncryptionValue>({
  id: 'https_encryption',
  category: 'security',
  importance: 'high',
  title: 'The page is served over https',
  failureTitle: 'The page is not served over https',
  description:
    'Without https anyone on the network can read or alter the page; browsers mark it "Not secure" and Google uses https as a ranking signal.',
  howToFix:
    'Install a TLS certificate (free from Let\'s Encrypt), serve the site over https and redirect every http:// URL to its https:// version with a 301.',
  labels: {
    final_url: 'Final URL', requested_url: 'Requested URL', insecure_url: 'Served over plain http',
  },
  value: HttpsEncryptionValue,
  run({ page }) {
    const value = { final_url: page.finalUrl, requested_url: page.requestedUrl };
    if (isHttpsPage(page)) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { insecure_url: [page.finalUrl] } };
  },
});
