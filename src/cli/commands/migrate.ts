// `migrate`: bring the database schema up to date (the server also does this at start).
import { loadConfig } from '../../config.ts';
import { printJson, type Command } from '../command.ts';
import { openDatabase } from '../../db/open-database.ts';

export const migrate: Command = {
  name: 'migrate',
  summary: 'Apply pending database migrations.',
  usage: 'migrate [--json]',
  options: { json: { type: 'boolean' } },
  async run(args, io) {
    const database = await openDatabase(loadConfig(io.env).databaseUrl);
    await database.close();
    const applied = database.appliedMigrations;
    if (args.values.json) printJson(io, { applied });
    else io.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n');
    return 0;
  },
};
