import { describe, expect, it } from 'vitest';
import { makeAux, makeContext } from '../../../test/support/check-context.ts';
import { AI_USER_AGENTS } from '../../robots/ai-user-agents.ts';
import { aiCrawlersCheck } from './ai-crawlers.ts';

const robotsTxt = (body: string | null, statusCode: number | null = 200, error: string | null = null) =>
  makeAux('https://example.com/robots.txt', { statusCode, body, error, contentType: 'text/plain' });
const run = (robots: ReturnType<typeof robotsTxt>, finalUrl = 'https://example.com/blog/post') =>
  aiCrawlersCheck.run(makeContext({ page: { finalUrl }, origin: { robotsTxt: robots } }));

describe('ai_crawlers', () => {
  it('lists every known AI agent with its purpose, all allowed by a robots.txt without rules for them', () => {
    const outcome = run(robotsTxt('User-agent: *\nDisallow: /admin/\n'));
    expect(outcome.passed).toBe(true);
    const value = outcome.value as Record<string, { purpose: string; allowed: boolean }>;
    expect(Object.keys(value)).toEqual(AI_USER_AGENTS.map((agent) => agent.token));
    expect(value['OAI-SearchBot']).toEqual({ purpose: 'search', allowed: true });
    expect(value.GPTBot).toEqual({ purpose: 'training', allowed: true });
  });

  it('passes when only training crawlers are blocked: that is a choice, not a fault', () => {
    const outcome = run(robotsTxt('User-agent: GPTBot\nUser-agent: ClaudeBot\nUser-agent: Google-Extended\nUser-agent: CCBot\nDisallow: /\n'));
    expect(outcome.passed).toBe(true);
    expect(outcome.value).toMatchObject({
      GPTBot: { purpose: 'training', allowed: false },
      ClaudeBot: { purpose: 'training', allowed: false },
      'Google-Extended': { purpose: 'training', allowed: false },
      CCBot: { purpose: 'training', allowed: false },
      'OAI-SearchBot': { purpose: 'search', allowed: true },
      'Claude-User': { purpose: 'assistant', allowed: true },
    });
  });

  it('fails when a search or assistant agent is blocked, naming the group and rule', () => {
    const outcome = run(robotsTxt('User-agent: *\nAllow: /\n\nUser-agent: PerplexityBot\nUser-agent: ChatGPT-User\nDisallow: /blog/\n'));
    expect(outcome).toMatchObject({
      passed: false,
      value: { PerplexityBot: { purpose: 'search', allowed: false }, 'ChatGPT-User': { purpose: 'assistant', allowed: false } },
      errors: {
        blocked: [
          { user_agent: 'ChatGPT-User', purpose: 'assistant', group: 'chatgpt-user', rule: { type: 'disallow', pattern: '/blog/', line: 6 } },
          { user_agent: 'PerplexityBot', purpose: 'search', group: 'perplexitybot', rule: { type: 'disallow', pattern: '/blog/', line: 6 } },
        ],
      },
    });
  });

  it('fails when the * group blocks everyone, the AI agents included', () => {
    const outcome = run(robotsTxt('User-agent: *\nDisallow: /\n'));
    expect(outcome.passed).toBe(false);
    const blocked = (outcome as unknown as { errors: { blocked: { user_agent: string }[] } }).errors.blocked.map((item) => item.user_agent);
    expect(blocked).toEqual(AI_USER_AGENTS.filter((agent) => agent.purpose !== 'training').map((agent) => agent.token));
  });

  it('judges only the page: a rule for another path does not block it', () => {
    expect(run(robotsTxt('User-agent: OAI-SearchBot\nDisallow: /private/\n')).passed).toBe(true);
  });

  it('allows every agent when robots.txt is missing (4xx), as for Googlebot', () => {
    const outcome = run(robotsTxt(null, 404));
    expect(outcome.passed).toBe(true);
    expect(Object.values(outcome.value as object).every((agent) => agent.allowed)).toBe(true);
  });

  it('does not apply when robots.txt could not be read', () => {
    expect(run(robotsTxt(null, 503))).toMatchObject({ passed: null, reason: expect.stringContaining('503') });
    expect(run(robotsTxt(null, null, 'timeout'))).toMatchObject({ passed: null, reason: expect.stringContaining('timeout') });
  });
});
