// `keys create`, `keys revoke` and `keys list`.
import { loadConfig } from '../../config.ts';
import { ValidationError } from '../../services/errors.ts';
import { printJson, UsageError, type Command } from '../command.ts';
import { emailOption, optionalEmailOption } from '../option-values.ts';
import { usingServices } from '../using-services.ts';

export const keysCreate: Command = {
  name: 'keys create',
  summary: 'Create another API key for an account (the key is shown once).',
  usage: 'keys create --email <email> [--label <text>] [--scope read|write] [--organization <id>] [--json]',
  options: {
    email: { type: 'string' },
    label: { type: 'string' },
    scope: { type: 'string' },
    organization: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const email = emailOption(args);
    const label = typeof args.values.label === 'string' ? args.values.label : null;
    const key = await usingServices(loadConfig(io.env), async (services) => {
      const account = await services.accounts.accountByEmail(email);
      const input = { name: label, scope: args.values.scope, organization: args.values.organization };
      try {
        return { email: account.email, ...(await services.keys.create({ userId: account.id, boundTo: null }, input)) };
      } catch (error) {
        // A scope or organisation the key cannot have is a usage error: nothing was made.
        if (error instanceof ValidationError && (error.field === 'scope' || error.field === 'organization' || error.field === 'name')) {
          throw new UsageError(`--${error.field === 'name' ? 'label' : error.field}: ${error.message}`);
        }
        throw error;
      }
    });
    if (args.values.json) printJson(io, { ...key, label: key.name });
    else io.stdout.write(`Created ${key.scope} key ${key.prefix}… for ${key.email}${key.organization === null ? '' : ` in organisation ${key.organization}`}. Shown only once:\n${key.api_key}\n`);
    return 0;
  },
};

export const keysRevoke: Command = {
  name: 'keys revoke',
  summary: 'Revoke an API key, named by its prefix (from keys list) or the whole key.',
  usage: 'keys revoke <prefix-or-key> [--json]',
  options: { json: { type: 'boolean' } },
  allowPositionals: true,
  async run(args, io) {
    const [which] = args.positionals;
    if (!which || args.positionals.length !== 1) throw new UsageError('Name exactly one key: its prefix or the whole key.');
    const revoked = await usingServices(loadConfig(io.env), async (services) => {
      try {
        return await services.accounts.revokeKey(which);
      } catch (error) {
        // Its one refusal is of the argument's form (a prefix too short): a usage error, nothing revoked.
        if (error instanceof ValidationError && error.field === 'key') throw new UsageError(error.message);
        throw error;
      }
    });
    if (args.values.json) printJson(io, { revoked });
    else io.stdout.write(revoked ? `Revoked ${which}.\n` : `No active key matches ${which}.\n`);
    return revoked ? 0 : 1;
  },
};

export const keysList: Command = {
  name: 'keys list',
  summary: 'List API keys (prefixes only; secrets are never stored).',
  usage: 'keys list [--email <email>] [--json]',
  options: { email: { type: 'string' }, json: { type: 'boolean' } },
  async run(args, io) {
    const email = optionalEmailOption(args);
    const keys = await usingServices(loadConfig(io.env), (services) => services.accounts.listKeys(email));
    if (args.values.json) printJson(io, keys);
    else
      for (const key of keys)
        io.stdout.write(
          `${key.prefix}…\t${key.email}\t${key.revoked_at ? `revoked ${key.revoked_at}` : 'active'}\t${key.scope}\t` +
            `${key.organization === null ? '-' : `organisation ${key.organization}`}\t${key.label ?? ''}\n`,
        );
    return 0;
  },
};
