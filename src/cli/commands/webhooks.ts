// `webhooks create`, `webhooks list` and `webhooks delete`: an admin manages an account's webhooks,
// as the account itself does through the API and the dashboard.
import { loadConfig } from '../../config.ts';
import { resolveSecretKey } from '../../security/secret-key.ts';
import type { Webhook } from '../../services/webhook-view.ts';
import { printJson, UsageError, type Command } from '../command.ts';
import { emailOption, eventsOption, webhookUrlOption } from '../option-values.ts';
import { usingServices } from '../using-services.ts';

/** An account has at most 20 webhooks (the service's cap): one page holds them all. */
const ALL_WEBHOOKS = 100;

function describeWebhook(webhook: Webhook): string {
  return `${webhook.id}\t${webhook.url}\t${webhook.events.join(',')}\t${webhook.created_at}`;
}

export const webhooksCreate: Command = {
  name: 'webhooks create',
  summary: 'Register a webhook for an account (its signing secret is shown once).',
  usage: 'webhooks create --email <email> --url <url> [--events <event,...>] [--json]',
  details: [
    'Options:',
    '  --events <list>  comma-separated: report.completed, report.failed, report.regressed, crawl.completed, crawl.regressed (default: all)',
    '',
    'The secret is encrypted with PAGEGRADE_SECRET_KEY: run this with the same setting as the servers.',
  ].join('\n'),
  options: { email: { type: 'string' }, url: { type: 'string' }, events: { type: 'string' }, json: { type: 'boolean' } },
  async run(args, io) {
    const email = emailOption(args);
    const url = webhookUrlOption(args);
    const events = eventsOption(args);
    const config = loadConfig(io.env);
    // Resolved here rather than when the service first needs it, so a key file made now is reported.
    const secretKey = resolveSecretKey(config);
    if (secretKey.notice) io.stderr.write(`${secretKey.notice}\n`);
    const created = await usingServices({ ...config, secretKey: secretKey.key }, async (services) => {
      const account = await services.accounts.accountByEmail(email);
      return services.webhooks.register(account.organization_id, { url, events });
    });
    if (args.values.json) printJson(io, { ...created, email });
    else
      io.stdout.write(
        `Created webhook ${created.id} for ${email}: ${created.url} (${created.events.join(', ')}).\n` +
          `Its signing secret, shown only once:\n${created.secret}\n`,
      );
    return 0;
  },
};

export const webhooksList: Command = {
  name: 'webhooks list',
  summary: 'List an account\'s webhooks (never their secrets).',
  usage: 'webhooks list --email <email> [--json]',
  options: { email: { type: 'string' }, json: { type: 'boolean' } },
  async run(args, io) {
    const email = emailOption(args);
    const page = await usingServices(loadConfig(io.env), async (services) => {
      const account = await services.accounts.accountByEmail(email);
      return services.lists.webhooks(account.organization_id, { page: 1, perPage: ALL_WEBHOOKS });
    });
    if (args.values.json) printJson(io, page.items);
    else for (const webhook of page.items) io.stdout.write(`${describeWebhook(webhook)}\n`);
    return 0;
  },
};

export const webhooksDelete: Command = {
  name: 'webhooks delete',
  summary: 'Delete one of an account\'s webhooks, named by its id (from webhooks list), with its deliveries.',
  usage: 'webhooks delete <id> --email <email> [--json]',
  options: { email: { type: 'string' }, json: { type: 'boolean' } },
  allowPositionals: true,
  async run(args, io) {
    const email = emailOption(args);
    const [which] = args.positionals;
    if (!which || args.positionals.length !== 1 || !/^[1-9][0-9]{0,14}$/.test(which)) {
      throw new UsageError('Name exactly one webhook by its id, a positive integer (see: pagegrade webhooks list).');
    }
    const id = Number(which);
    await usingServices(loadConfig(io.env), async (services) => {
      const account = await services.accounts.accountByEmail(email);
      await services.webhooks.remove(account.organization_id, id);
    });
    if (args.values.json) printJson(io, { id, object: 'webhook', deleted: true });
    else io.stdout.write(`Deleted webhook ${id} of ${email}.\n`);
    return 0;
  },
};
