import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AI_USER_AGENTS } from './ai-user-agents.ts';

describe('AI_USER_AGENTS', () => {
  it('lists each token once, as a robots.txt product token (letters, "-" and "_")', () => {
    const tokens = AI_USER_AGENTS.map((agent) => agent.token.toLowerCase());
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const { token } of AI_USER_AGENTS) expect(token).toMatch(/^[A-Za-z_-]+$/);
  });

  it('holds the crawlers the ai_crawlers check must know, with their purpose', () => {
    const purpose = Object.fromEntries(AI_USER_AGENTS.map((agent) => [agent.token, agent.purpose]));
    expect(purpose).toMatchObject({
      'OAI-SearchBot': 'search',
      'ChatGPT-User': 'assistant',
      PerplexityBot: 'search',
      'Claude-SearchBot': 'search',
      'Claude-User': 'assistant',
      GPTBot: 'training',
      ClaudeBot: 'training',
      'Google-Extended': 'training',
      CCBot: 'training',
      'Applebot-Extended': 'training',
      Bytespider: 'training',
    });
  });

  it('says above every entry where its operator documents it', () => {
    const source = readFileSync(new URL('./ai-user-agents.ts', import.meta.url), 'utf8');
    const lines = source.split('\n');
    for (const { token } of AI_USER_AGENTS) {
      const at = lines.findIndex((line) => line.includes(`token: '${token}'`));
      // the nearest comment above the entry, past the entries of the same operator
      let comment = at - 1;
      while (comment >= 0 && !lines[comment].trim().startsWith('//')) comment--;
      const block = lines.slice(Math.max(0, comment - 1), comment + 1).join(' ');
      expect(block, token).toMatch(/https:\/\/\S+|publishes no page/);
    }
  });
});
