import { capItems, defineCheck } from '../check.ts';
import { Int, Obj } from '../value-schema.ts';

const PlaintextEmailValue = Obj({ emails: Int(), in_text: Int(), in_mailto_links: Int() });

export const plaintextEmailCheck = defineCheck<typeof PlaintextEmailValue>({
  id: 'plaintext_email',
  category: 'security',
  importance: 'low',
  title: 'No e-mail address is shown in plain text',
  failureTitle: 'E-mail addresses are shown in plain text',
  description:
    'Spam bots harvest e-mail addresses from page text and `mailto:` links; an address published this way soon receives spam and phishing.',
  howToFix: 'Replace the addresses with a contact form, or obfuscate them (e.g. render them with JavaScript or as an image).',
  labels: {
    emails: 'E-mail addresses', in_text: 'In the text', in_mailto_links: 'In mailto: links',
  },
  value: PlaintextEmailValue,
  run({ snapshot }) {
    const inText = unique(snapshot.text.emails);
    const inMailto = unique(snapshot.mailtoEmails);
    const value = { emails: unique([...inText, ...inMailto]).length, in_text: inText.length, in_mailto_links: inMailto.length };
    if (value.emails === 0) return { passed: true, value, errors: null };
    const errors: Record<string, string[]> = {};
    if (inText.length > 0) errors.in_text = capItems(inText);
    if (inMailto.length > 0) errors.in_mailto_links = capItems(inMailto);
    return { passed: false, value, errors };
  },
});

/** The same address in another letter case is one address. */
function unique(emails: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const email of emails) if (!byKey.has(email.toLowerCase())) byKey.set(email.toLowerCase(), email);
  return [...byKey.values()];
}
