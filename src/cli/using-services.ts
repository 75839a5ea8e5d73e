// Opens the database (migrating it), hands the services to a callback, and always closes them and it.
import type { Config } from '../config.ts';
import { openDatabase } from '../db/open-database.ts';
import { createServices, type Services } from '../services/index.ts';

export async function usingServices<T>(config: Config, run: (services: Services) => Promise<T>): Promise<T> {
  const database = await openDatabase(config.databaseUrl);
  const services = createServices(database, config);
  try {
    return await run(services);
  } finally {
    await services.background.close();
    // Browsers started for rendering (crawl --render) keep the process alive until they are closed.
    await services.rendering.close();
    await database.close();
  }
}
