import { defineCheck } from '../check.ts';
import { outcomeFromErrors } from './outcome.ts';
import { Int, Num, Obj } from '../value-schema.ts';

const ContentLengthValue = Obj({ words: Int(), min: Num() });

export const contentLengthCheck = defineCheck<typeof ContentLengthValue>({
  id: 'content_length',
  category: 'seo',
  importance: 'low',
  title: 'The page has enough text',
  failureTitle: 'The page has little text',
  description:
    'Pages with only a few sentences rarely answer a searcher’s question well and are easily seen as thin content; enough visible text gives search engines something to rank.',
  howToFix: 'Expand the main content with useful text for the reader, or merge thin pages into a fuller one.',
  labels: {
    words: 'Words', min: 'Fewest words wanted', too_short: 'Too little text',
  },
  value: ContentLengthValue,
  run({ snapshot, thresholds }) {
    const words = snapshot.text.wordCount;
    const value = { words, min: thresholds.min_words };
    return outcomeFromErrors(value, words >= thresholds.min_words ? {} : { too_short: [{ words, min: thresholds.min_words }] });
  },
});
