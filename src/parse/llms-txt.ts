// Reads an llms.txt file (https://llmstxt.org): a Markdown file that starts with a `# Title`, may
// follow it with a `> summary` and some prose, then lists the site's key pages in `## Section`s of
// `- [name](url): notes` items. Pure: the llms_txt check judges what this finds.

interface LlmsTxtLink {
  name: string;
  url: string;
}

interface LlmsTxtSection {
  name: string;
  /** 1-based line of the `## ` heading. */
  line: number;
  links: LlmsTxtLink[];
}

interface LlmsTxtProblem {
  line: number;
  /** The line as written, trimmed, at most 200 characters. */
  text: string;
}

export interface LlmsTxt {
  /** The `# ` title when the file starts with one (blank lines aside); null otherwise. */
  title: string | null;
  /** The first line of the `> ` summary right after the title, or null. */
  summary: string | null;
  sections: LlmsTxtSection[];
  /** Further `# ` headings: the format has one title. */
  extraTitles: LlmsTxtProblem[];
  /** List items in sections that are not `- [name](url)` with a URL that parses. */
  malformedLinks: LlmsTxtProblem[];
  /** The first line that has content, when it is not a `# ` title. */
  firstLine: LlmsTxtProblem | null;
}

const HEADING = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const LIST_ITEM = /^[-*+][ \t]+/;
/** `- [name](url)` with optional `: notes`; the name may not hold "]", the URL no space or ")". */
const LINK_ITEM = /^[-*+][ \t]+\[([^\]]+)\]\(([^\s)]+)\)(?:[ \t]*:.*)?$/;
const MAX_SHOWN_CHARS = 200;

const shown = (line: string, index: number): LlmsTxtProblem => ({ line: index + 1, text: line.trim().slice(0, MAX_SHOWN_CHARS) });

/** `fileUrl`: where the file was read, so relative link URLs resolve as a reader would resolve them. */
export function parseLlmsTxt(text: string, fileUrl: string): LlmsTxt {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const result: LlmsTxt = { title: null, summary: null, sections: [], extraTitles: [], malformedLinks: [], firstLine: null };
  let section: LlmsTxtSection | null = null;
  let seenContent = false;
  let afterTitle = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const heading = HEADING.exec(trimmed);
    if (!seenContent) {
      seenContent = true;
      if (heading && heading[1] === '#' && heading[2] !== '') {
        result.title = heading[2];
        afterTitle = true;
        continue;
      }
      result.firstLine = shown(line, i);
    }
    if (afterTitle && trimmed.startsWith('>')) {
      result.summary = trimmed.replace(/^>\s*/, '');
      afterTitle = false;
      continue;
    }
    afterTitle = false;
    if (heading && heading[1] === '#') {
      result.extraTitles.push(shown(line, i));
    } else if (heading && heading[1] === '##') {
      section = { name: heading[2], line: i + 1, links: [] };
      result.sections.push(section);
    } else if (section !== null && LIST_ITEM.test(trimmed)) {
      const link = LINK_ITEM.exec(trimmed);
      if (link && URL.canParse(link[2], fileUrl)) section.links.push({ name: link[1], url: new URL(link[2], fileUrl).href });
      else result.malformedLinks.push(shown(line, i));
    }
  }
  return result;
}
