// `users create` and `users list`.
import { loadConfig } from '../../config.ts';
import { printJson, type Command } from '../command.ts';
import { emailOption } from '../option-values.ts';
import { usingServices } from '../using-services.ts';

export const usersCreate: Command = {
  name: 'users create',
  summary: 'Create an account and its first API key (the key is shown once).',
  usage: 'users create --email <email> [--admin] [--json]',
  options: { email: { type: 'string' }, admin: { type: 'boolean' }, json: { type: 'boolean' } },
  async run(args, io) {
    // Checked before the database is opened: a malformed address is a usage error and creates nothing.
    const email = emailOption(args);
    const created = await usingServices(loadConfig(io.env), (services) =>
      services.accounts.createUser(email, args.values.admin === true),
    );
    const output = { id: created.account.id, email: created.account.email, admin: created.account.is_admin, api_key: created.apiKey };
    if (args.values.json) printJson(io, output);
    else io.stdout.write(`Created ${output.email} (id ${output.id}). API key, shown only once:\n${output.api_key}\n`);
    return 0;
  },
};

export const usersList: Command = {
  name: 'users list',
  summary: 'List accounts.',
  usage: 'users list [--json]',
  options: { json: { type: 'boolean' } },
  async run(args, io) {
    const users = await usingServices(loadConfig(io.env), (services) => services.accounts.listUsers());
    if (args.values.json) printJson(io, users);
    else for (const user of users) io.stdout.write(`${user.id}\t${user.email}\t${user.is_admin ? 'admin' : ''}\t${user.created_at}\n`);
    return 0;
  },
};
