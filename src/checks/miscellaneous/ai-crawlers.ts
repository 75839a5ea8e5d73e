import { defineCheck, notApplicable } from '../check.ts';
import { evaluateRobots } from '../../robots/robots-txt.ts';
import { AI_USER_AGENTS, type AiPurpose } from '../../robots/ai-user-agents.ts';
import { robotsTxtState } from '../seo/robots-access.ts';
import { outcomeFromErrors } from '../seo/outcome.ts';
import { Bool, Dict, Obj, OneOf } from '../value-schema.ts';

/** Agents whose blocking keeps the page out of AI answers; training agents are a publisher's choice. */
const ANSWERING: ReadonlySet<AiPurpose> = new Set(['search', 'assistant']);

const AiCrawlersValue = Dict(
  Obj({ purpose: OneOf(['search', 'assistant', 'training']), allowed: Bool() }),
  'every known AI user agent, by its robots.txt token',
);

export const aiCrawlersCheck = defineCheck<typeof AiCrawlersValue>({
  id: 'ai_crawlers',
  category: 'miscellaneous',
  importance: 'low',
  title: 'robots.txt lets AI search and assistant crawlers read the page',
  failureTitle: 'robots.txt blocks AI search or assistant crawlers from the page',
  description:
    'AI search engines and assistants (ChatGPT search, Claude, Perplexity, ...) can only cite and link to pages their own crawlers may read, and each obeys its own robots.txt group. Blocking their training crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot...) is a choice that costs no visibility, so it never fails this check.',
  howToFix:
    'In robots.txt, remove or narrow the Disallow rule shown for each listed agent (or give it a group of its own with `Allow: /`). To keep content out of model training only, disallow the training agents (GPTBot, ClaudeBot, Google-Extended, ...) and leave the search and assistant agents allowed.',
  labels: {
    blocked: 'AI search and assistant crawlers blocked', purpose: 'Purpose', allowed: 'Allowed',
  },
  value: AiCrawlersValue,
  run(ctx) {
    const state = robotsTxtState(ctx);
    if (state.kind === 'unknown') return notApplicable(state.reason);
    const url = ctx.page.finalUrl;
    const value: Record<string, { purpose: AiPurpose; allowed: boolean }> = {};
    const blocked: Record<string, unknown>[] = [];
    for (const agent of AI_USER_AGENTS) {
      // No robots.txt (a 4xx) allows every agent, as it allows Googlebot.
      if (state.kind === 'absent') {
        value[agent.token] = { purpose: agent.purpose, allowed: true };
        continue;
      }
      const verdict = evaluateRobots(state.robots, url, [agent.token]);
      value[agent.token] = { purpose: agent.purpose, allowed: verdict.allowed };
      if (verdict.allowed || !ANSWERING.has(agent.purpose)) continue;
      const rule = verdict.rule;
      blocked.push({
        user_agent: agent.token,
        purpose: agent.purpose,
        group: verdict.group,
        rule: rule && { type: rule.allow ? 'allow' : 'disallow', pattern: rule.pattern, line: rule.line },
      });
    }
    return outcomeFromErrors(value, blocked.length === 0 ? {} : { blocked });
  },
});
