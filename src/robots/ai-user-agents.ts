// The AI crawlers and fetchers that robots.txt can address, by the product token their operator
// documents for robots.txt. One list, read by the ai_crawlers check; add a token here with the page
// where its operator documents it, and the purpose that page gives.
//
// search:    builds the index an AI search product answers and cites from
// assistant: fetches a page live because a person asked an assistant about it
// training:  collects pages (or permission to use them) to train models
// Blocking a search or assistant agent keeps the site out of those answers; blocking a training agent
// is a publisher's choice that costs no visibility, so only the first two can fail the check.

export type AiPurpose = 'search' | 'assistant' | 'training';

export interface AiUserAgent {
  /** The robots.txt product token, as its operator writes it. */
  token: string;
  operator: string;
  purpose: AiPurpose;
}

export const AI_USER_AGENTS: readonly AiUserAgent[] = [
  // OpenAI documents all three at https://platform.openai.com/docs/bots
  { token: 'OAI-SearchBot', operator: 'OpenAI', purpose: 'search' },
  { token: 'ChatGPT-User', operator: 'OpenAI', purpose: 'assistant' },
  { token: 'GPTBot', operator: 'OpenAI', purpose: 'training' },
  // Anthropic documents all three at https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler
  { token: 'Claude-SearchBot', operator: 'Anthropic', purpose: 'search' },
  { token: 'Claude-User', operator: 'Anthropic', purpose: 'assistant' },
  { token: 'ClaudeBot', operator: 'Anthropic', purpose: 'training' },
  // Perplexity documents both at https://docs.perplexity.ai/guides/bots
  { token: 'PerplexityBot', operator: 'Perplexity', purpose: 'search' },
  { token: 'Perplexity-User', operator: 'Perplexity', purpose: 'assistant' },
  // DuckDuckGo: https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot
  { token: 'DuckAssistBot', operator: 'DuckDuckGo', purpose: 'assistant' },
  // Mistral AI: https://docs.mistral.ai/robots
  { token: 'MistralAI-User', operator: 'Mistral AI', purpose: 'assistant' },
  // Meta documents both at https://developers.facebook.com/docs/sharing/webmasters/web-crawlers
  { token: 'Meta-ExternalFetcher', operator: 'Meta', purpose: 'assistant' },
  { token: 'Meta-ExternalAgent', operator: 'Meta', purpose: 'training' },
  // Google: a robots.txt token only (Googlebot does the fetching), documented at
  // https://developers.google.com/search/docs/crawling-indexing/google-common-crawlers#google-extended
  { token: 'Google-Extended', operator: 'Google', purpose: 'training' },
  // Apple: a robots.txt token only (Applebot does the fetching), documented at https://support.apple.com/en-us/119829
  { token: 'Applebot-Extended', operator: 'Apple', purpose: 'training' },
  // Common Crawl, whose archive feeds many training sets: https://commoncrawl.org/ccbot
  { token: 'CCBot', operator: 'Common Crawl', purpose: 'training' },
  // ByteDance publishes no page for it; its User-Agent names the contact spider-feedback@bytedance.com.
  { token: 'Bytespider', operator: 'ByteDance', purpose: 'training' },
];
