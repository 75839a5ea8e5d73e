// The JSON files `analyze` options name (--compare, --budget): read before anything is analysed, so a
// file that cannot be read or is not JSON is a usage error (exit 2) naming the option and the file.
import { readFile } from 'node:fs/promises';
import { UsageError } from './command.ts';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file's JSON value (a byte order mark ignored). */
export async function readJsonOptionFile(option: string, path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${option} ${path}: ${messageOf(error)}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UsageError(`${option} ${path} is not valid JSON: ${messageOf(error)}`);
  }
}
