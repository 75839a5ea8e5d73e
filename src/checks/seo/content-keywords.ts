import { capItems, defineCheck, notApplicable } from '../check.ts';
import { outcomeFromErrors } from './outcome.ts';
import { List, Obj, Str } from '../value-schema.ts';

// Function words of the main European languages; a title word among them says nothing about the topic.
// Words under 3 letters are dropped anyway, so they are not listed.
const STOP_WORDS = new Set(
  [
    // English
    "the and for are but not you your yours all any can could had has have having her hers him his how its it's our ours out she they them their theirs this that these those what which who whom whose why when where while with within without was were been being will would shall should may might must from into onto over under about above below after before again also just only than then there here very such some more most other others each both few own same too yes off per via itself does doing did done upon among because between through during against until isn't aren't wasn't weren't don't doesn't didn't won't can't cannot",
    // Spanish
    'los las del una uno unos unas que por para con sin sobre entre como más mas pero sus este esta estos estas ese esa esos esas aquel aquella ella ellos ellas nos nosotros vosotros usted ustedes les muy también tambien son ser está están fue han hay hasta desde donde cuando cual cuales quien quienes todo todos toda todas otro otra otros otras mismo misma porque qué cómo cuál dónde cuándo ante bajo tras mis tus nuestro nuestra vuestro',
    // French
    "les des une pour par avec sans sur sous dans entre comme mais plus que qui quoi dont est sont été être avoir ont aux ces cet cette ses son leur leurs nos vos notre votre elle elles ils nous vous lui eux très aussi tout tous toute toutes autre autres même car donc ainsi chez vers pas peu ceci cela quand comment pourquoi c'est qu'il",
    // German
    'der die das den dem des ein eine einen einem einer eines und oder aber mit für von vom zum zur bei aus auf nach über unter vor ist sind war waren wird werden hat haben sein seine nicht auch noch nur wie was wer wenn dass daß sich sie ihr ihre ihren ihm ihn wir uns euch mein meine dein deine dieser diese dieses jeder jede alle mehr sehr schon durch gegen ohne bis hier dort dann denn doch',
    // Portuguese
    'uma umas uns dos das nos nas para por com sem sobre entre como mas mais que quem qual quais seu sua seus suas este esta estes estas esse essa isso isto aquele aquela ele ela eles elas nós vós você vocês são ser está estão foi tem têm muito muita também tambem pelo pela pelos pelas até onde quando porque',
    // Italian
    'gli uno una dei degli delle della dello del nel nella nelle negli nei sul sulla sui con per tra fra che chi cui come non più piu anche sono essere stato questa questo questi queste quella quello quelli loro suo sua suoi sue mio mia nostro nostra vostro molto tutto tutti tutte dove quando perché perche alla alle allo agli dal dalla dai dalle',
    // Dutch
    'het een van voor met zonder door over onder naar bij uit aan als maar ook niet dat die dit deze wat wie waar wanneer hoe zijn was waren wordt worden heeft hebben hun haar zij wij jij jou jouw mijn onze ons tot dan nog meer zeer veel alle',
  ].flatMap((list) => list.split(' ')),
);

// Scripts written without spaces between words: no word boundaries to compare by, so their characters
// separate words ("DeepMind新电脑" yields "deepmind") and are not keywords themselves.
const UNSPACED_SCRIPTS = ['Han', 'Hiragana', 'Katakana', 'Thai', 'Lao', 'Khmer', 'Myanmar'];
const UNSPACED_SCRIPT = new RegExp(`[${UNSPACED_SCRIPTS.map((script) => `\\p{Script_Extensions=${script}}`).join('')}]+`, 'gu');

/** Runs of letters, digits and combining marks (as the parser counts words), keeping inner apostrophes
 * and hyphens: "don't", "e-commerce". */
const COMPOUND = /[\p{L}\p{N}\p{M}]+(?:['’-][\p{L}\p{N}\p{M}]+)*/gu;

const ContentKeywordsValue = Obj({ title_words: List(Str()), found: List(Str(), 'title words found in the visible text') });

export const contentKeywordsCheck = defineCheck<typeof ContentKeywordsValue>({
  id: 'content_keywords',
  category: 'seo',
  importance: 'medium',
  title: 'The content uses the words of the title',
  failureTitle: 'No word of the title appears in the content',
  description:
    'Search engines check that a page delivers what its title promises. When none of the title’s words appear in the visible text, the title and the content tell different stories.',
  howToFix: 'Use the main words of the title in the visible text (the first paragraph is a natural place), or retitle the page to match what it says.',
  labels: {
    title_words: 'Significant words of the title', found: 'Found in the text', not_in_content: 'Title words missing from the text',
  },
  value: ContentKeywordsValue,
  run({ snapshot }) {
    if (snapshot.titles.length === 0) return notApplicable('the page has no title');
    const { words } = snapshot.text;
    const has = (word: string) => words.has(word) || words.has(word.replace(/’/g, "'")) || words.has(word.replace(/'/g, '’'));

    const keywords = new Set<string>();
    const found = new Set<string>();
    for (const compound of snapshot.titles[0].toLowerCase().replace(UNSPACED_SCRIPT, ' ').match(COMPOUND) ?? []) {
      for (const word of compound.split('-')) {
        if (!isSignificant(word)) continue;
        keywords.add(word);
        // Text tokenisers differ: "e-commerce" may be one word or two, "l'amour" may be "amour".
        const spellings = [word, compound, ...word.split(/['’]/).filter((part) => part.length >= 3)];
        if (spellings.some(has)) found.add(word);
      }
    }

    const value = { title_words: capItems([...keywords]), found: capItems([...found]) };
    if (keywords.size === 0) {
      const reason = 'the title has no significant word to look for (3+ letters, not a stop word, in a script written with spaces)';
      return notApplicable(reason, value);
    }
    return outcomeFromErrors(value, found.size > 0 ? {} : { not_in_content: capItems([...keywords]) });
  },
});

const LETTER = /^\p{L}$/u;

function isSignificant(word: string): boolean {
  return hasThreeLetters(word) && !STOP_WORDS.has(word.replace(/’/g, "'"));
}

/** At least three code points of `word` are letters (\p{L}); ASCII ones are told without a regular expression. */
function hasThreeLetters(word: string): boolean {
  let letters = 0;
  for (const character of word) {
    const code = character.charCodeAt(0);
    const isLetter = code < 0x80 ? (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a : LETTER.test(character);
    if (isLetter && ++letters === 3) return true;
  }
  return false;
}
