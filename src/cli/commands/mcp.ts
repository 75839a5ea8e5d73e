// `mcp`: pagegrade's tools for agents over the Model Context Protocol's stdio transport (docs/cli.md,
// "MCP for agents"). Like `analyze` it analyses in-process, needing no server, database or key:
// analyze_url answers the agent report of its analysis (nothing is stored) and list_checks the check
// catalogue. stdout carries the protocol's messages and nothing else; whatever else is said goes to stderr.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ConfigError, loadConfig, type Config } from '../../config.ts';
import { localAgentReport } from '../../mcp/agent-report.ts';
import { AnsweringTransport } from '../../mcp/answering-transport.ts';
import { listChecks } from '../../mcp/list-checks.ts';
import { createToolServer } from '../../mcp/tool-server.ts';
import type { ToolHandlers } from '../../mcp/tools.ts';
import type { LabProfileName } from '../../lab/lab-types.ts';
import { analyzerFromConfig, rendererFromConfig } from '../../services/index.ts';
import { UsageError, type Command } from '../command.ts';
import { noChromiumSentence } from '../no-chromium.ts';
import { analyzeTarget } from '../url-outcome.ts';
import { pagegradeVersion } from '../version.ts';

const DETAILS = `Reads MCP messages (JSON-RPC, one a line) on stdin and answers on stdout, until stdin ends; then it
exits 0. Tools:
  analyze_url  url, render, lab: analyses the page as analyze does (render: as --render, lab: as --lab
               under the mobile profile) and answers the agent report: url, project, score, result,
               issues, generated_at and every failed check, high importance first. A URL that cannot
               be analysed is an error result saying why, as analyze says it
  list_checks  every check with what it means and how to fix it, as GET /api/v1/checks

Settings come from the environment, as analyze's do (PAGEGRADE_ALLOW_PRIVATE_URLS,
PAGEGRADE_FETCH_TIMEOUT_MS, PAGEGRADE_CHROMIUM_PATH, PAGEGRADE_THRESHOLDS, ...); a bad one exits 2
before anything is read. Nothing but protocol messages is written to stdout: a check's internal error
goes to stderr. For an MCP client's configuration see docs/cli.md, "MCP for agents".`;

/** Lab audits over MCP take the profile analyze --lab takes when --lab-profile is not given. */
const LAB_PROFILE: LabProfileName = 'mobile';

function settingsFrom(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    // As analyze: a bad setting is a usage error (exit 2), said before the protocol starts.
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export interface LocalToolServer {
  server: McpServer;
  /** Closes the server and the browser it may have started. */
  close(): Promise<void>;
}

/** The tools of `pagegrade mcp`, analysing under `config` as analyze does; `stderr` hears of a check that threw. */
export function localToolServer(config: Config, stderr: NodeJS.WritableStream): LocalToolServer {
  // One renderer for every call, as analyze has one for every URL: one browser, started on first use,
  // and its gate that lets one lab audit run at a time. Null without Chromium.
  const renderer = rendererFromConfig(config);
  const analyzeUrl = analyzerFromConfig(
    config,
    (checkId, error) => stderr.write(`pagegrade: internal error in check ${checkId}: ${error instanceof Error ? error.message : String(error)}\n`),
    renderer,
  );
  const handlers: Pick<ToolHandlers, 'analyze_url' | 'list_checks'> = {
    async analyze_url({ url, render = false, lab = false }) {
      if ((render || lab) && renderer === null) {
        const asked = [render && 'render', lab && 'lab'].filter((name) => name !== false);
        return { failure: noChromiumSentence(asked, config.chromiumPath) };
      }
      const outcome = await analyzeTarget((target) => analyzeUrl(target, { render, ...(lab && { lab: LAB_PROFILE }) }), url);
      return 'error' in outcome ? { failure: outcome.error } : { content: localAgentReport(outcome.analysis) };
    },
    list_checks: listChecks,
  };
  const server = createToolServer(pagegradeVersion(), handlers);
  return {
    server,
    async close() {
      await server.close();
      await renderer?.close();
    },
  };
}

export const mcp: Command = {
  name: 'mcp',
  summary: 'Serve MCP over stdin and stdout for agents: the analyze_url and list_checks tools, without a server.',
  usage: 'mcp',
  details: DETAILS,
  options: {},
  async run(_args, io) {
    const local = localToolServer(settingsFrom(io.env), io.stderr);
    // The transport only writes to stdout and waits for its 'drain', which any writable stream does.
    const transport = new AnsweringTransport(new StdioServerTransport(process.stdin, io.stdout as Writable));
    const inputEnded = once(process.stdin, 'end');
    await local.server.connect(transport);
    await inputEnded;
    // What was asked before the input ended is still answered (answering-transport.ts).
    await transport.answered();
    await local.close();
    return 0;
  },
};
