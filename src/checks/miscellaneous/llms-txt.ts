import { capItems, defineCheck, notApplicable, type CheckErrors } from '../check.ts';
import { parseLlmsTxt } from '../../parse/llms-txt.ts';
import { outcomeFromErrors } from '../seo/outcome.ts';
import { Int, Nullable, Obj, Str } from '../value-schema.ts';

const LlmsTxtValue = Obj({
  url: Str(),
  status_code: Int(),
  content_type: Nullable(Str()),
  title: Nullable(Str()),
  summary: Nullable(Str()),
  sections: Int(),
  links: Int(),
});

export const llmsTxtCheck = defineCheck<typeof LlmsTxtValue>({
  id: 'llms_txt',
  category: 'miscellaneous',
  importance: 'low',
  title: 'The site has a well-formed llms.txt',
  failureTitle: 'llms.txt is missing or not in the llms.txt format',
  description:
    'An llms.txt at the root of the site gives AI assistants and search engines a short, plain-text guide to it: what the site is and which pages matter, as links they can follow without parsing the HTML.',
  howToFix:
    'Serve /llms.txt as text/plain (or text/markdown): a `# Site name` first line, a `> one-line summary`, then `## Section` headings, each followed by `- [Page name](https://…): optional notes` lines (format: llmstxt.org).',
  labels: {
    url: 'URL', status_code: 'Status code', content_type: 'Content type', title: 'Title', summary: 'Summary', sections: 'Sections',
    links: 'Links', missing: 'No llms.txt', not_text: 'Not a text file', no_title: 'No "# " title first',
    extra_titles: 'More than one title', malformed_links: 'Malformed links', empty_sections: 'Sections without links', no_links: 'No links',
    text: 'Line as written', section: 'Section',
  },
  value: LlmsTxtValue,
  run({ origin }) {
    const file = origin.llmsTxt;
    const { statusCode } = file;
    if (statusCode === null) return notApplicable(`/llms.txt could not be fetched (${file.error ?? 'no response'})`);
    // A server error or rate limit says nothing about whether the file exists: not a verdict.
    if (statusCode >= 500 || statusCode === 429) return notApplicable(`/llms.txt answered ${statusCode}, so it could not be read`);
    const value = { url: file.finalUrl, status_code: statusCode, content_type: file.contentType, title: null, summary: null, sections: 0, links: 0 };
    if (statusCode !== 200) return { passed: false, value, errors: { missing: [{ url: file.url, status_code: statusCode }] } };
    if (!/^\s*text\//i.test(file.contentType ?? '')) {
      return { passed: false, value, errors: { not_text: [{ url: file.finalUrl, content_type: file.contentType }] } };
    }

    const parsed = parseLlmsTxt(file.body ?? '', file.finalUrl);
    const links = parsed.sections.reduce((sum, section) => sum + section.links.length, 0);
    const errors: CheckErrors = {};
    if (parsed.title === null) errors.no_title = [parsed.firstLine ?? { line: 1, text: '(the file is empty)' }];
    if (parsed.extraTitles.length > 0) errors.extra_titles = capItems(parsed.extraTitles);
    if (parsed.malformedLinks.length > 0) errors.malformed_links = capItems(parsed.malformedLinks);
    const empty = parsed.sections.filter((section) => section.links.length === 0);
    if (empty.length > 0) errors.empty_sections = capItems(empty.map((section) => ({ line: section.line, section: section.name })));
    if (links === 0) errors.no_links = ['no "## Section" lists a "- [name](url)" link'];
    return outcomeFromErrors({ ...value, title: parsed.title, summary: parsed.summary, sections: parsed.sections.length, links }, errors);
  },
});
