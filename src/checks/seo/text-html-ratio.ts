import { defineCheck, notApplicable } from '../check.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Num, Obj } from '../value-schema.ts';

const TextHtmlRatioValue = Obj({ percent: Num(), text_chars: Int(), html_chars: Int(), min: Num() });

export const textHtmlRatioCheck = defineCheck<typeof TextHtmlRatioValue>({
  id: 'text_html_ratio',
  category: 'seo',
  importance: 'low',
  title: 'The page has a healthy text to HTML ratio',
  failureTitle: 'The page is mostly markup',
  description:
    'When visible text is a small share of the HTML, the page is mostly markup, inline scripts and styles: heavier to download and parse, with little content for search engines to read.',
  howToFix: 'Move inline scripts and styles to external files, remove unused markup, and make sure the main content is in the HTML as text.',
  labels: {
    percent: 'Text share of the HTML (%)', text_chars: 'Text characters', html_chars: 'HTML characters', min: 'Smallest share wanted (%)',
    too_low: 'Too little text for the HTML',
  },
  value: TextHtmlRatioValue,
  run({ snapshot, thresholds }) {
    if (snapshot.htmlLength === 0) return notApplicable('the page has no HTML');
    // Judged on the rounded figure people see, so "10.0%" never fails a 10% minimum.
    const percent = Math.round((1000 * snapshot.text.charCount) / snapshot.htmlLength) / 10;
    const min = thresholds.min_text_html_ratio_percent;
    const value = { percent, text_chars: snapshot.text.charCount, html_chars: snapshot.htmlLength, min };
    return outcomeFromErrors(value, percent >= min ? {} : { too_low: [{ percent, min }] });
  },
});
