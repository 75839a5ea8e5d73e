// `analyze --config <file>`, or ./pagegrade.config.json: a pipeline's analyze options in one JSON file
// (docs/cli.md, "A config file for pipelines"). The whole file is checked before anything is analysed:
// a file that cannot be read, is too large, is not JSON or not an object, has an unknown key or a value
// of the wrong kind is a usage error (exit code 2) naming the file as given (or as found) and the key.
import { open, type FileHandle } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseBudget, type Budget } from './budget.ts';
import { UsageError } from './command.ts';
import { editDistance } from './did-you-mean.ts';
import type { FailOn } from './exit-status.ts';
import { isObject } from './json-option-file.ts';
import { formatFromName, unwritable, type OutputFile } from './outputs/index.ts';

/** The file `analyze` looks for in the current directory when neither URLs nor --config are given. */
export const CONFIG_FILE_NAME = 'pagegrade.config.json';
/** A pipeline's file of a few thousand URLs is some hundreds of KiB; the file is read whole into memory. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const CONFIG_KEYS = ['urls', 'budget', 'outputs', 'render', 'lab', 'fail_on', 'min_score', '$schema'] as const;
/** A suggestion for an unknown key only within this many one-character edits, as for a command. */
const MAX_EDITS = 2;
/** Values in messages are cut here: a wrong value may be a whole list. */
const MAX_SHOWN = 80;

export interface ConfigFile {
  /** the file as --config gave it, or CONFIG_FILE_NAME: how messages name it */
  name: string;
  urls?: string[];
  budget?: Budget;
  /** `outputs`, each resolved against the file's folder, its format by its name */
  outputs?: OutputFile[];
  render?: boolean;
  lab?: boolean;
  failOn?: FailOn;
  minScore?: number;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

/** The one known key within MAX_EDITS of `key`, or undefined when none is or two are equally near. */
function nearestKey(key: string): string | undefined {
  const distances = CONFIG_KEYS.map((known) => ({ known, distance: editDistance(key, known) })).filter(({ distance }) => distance <= MAX_EDITS);
  const best = Math.min(...distances.map(({ distance }) => distance));
  const nearest = distances.filter(({ distance }) => distance === best);
  return nearest.length === 1 ? nearest[0].known : undefined;
}

/** The file's text; undefined when `optional` and there is no such file. */
async function readConfigText(name: string, path: string, optional: boolean): Promise<string | undefined> {
  const cannotRead = (why: string) => new UsageError(optional ? `Cannot read ${name}: ${why}` : `Cannot read --config ${name}: ${why}`);
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw cannotRead(error instanceof Error ? error.message : String(error));
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw cannotRead('it is not a file');
    // Checked before reading, so a huge file (or a mistaken --config /dev/zero) costs nothing.
    if (stats.size > MAX_CONFIG_BYTES) throw new UsageError(`${name}: the file is ${stats.size} bytes; a config file may have at most ${MAX_CONFIG_BYTES} (1 MiB)`);
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw cannotRead(error instanceof Error ? error.message : String(error));
  } finally {
    await handle.close();
  }
}

function outputFiles(value: unknown, folder: string, invalid: (why: string) => UsageError): OutputFile[] {
  if (!Array.isArray(value)) throw invalid(`"outputs" must be an array of file names; got ${shown(value)}`);
  const files: OutputFile[] = [];
  value.forEach((name: unknown, index) => {
    if (typeof name !== 'string' || name === '') throw invalid(`"outputs[${index}]" must be a file name; got ${shown(name)}`);
    const format = formatFromName(name);
    if (format === undefined) {
      throw invalid(`"outputs[${index}]" ${shown(name)}: cannot tell the format from the name; end it in .json, .html, .junit.xml, .xml, .sarif or .sarif.json`);
    }
    const path = resolve(folder, name);
    if (files.some((file) => file.path === path)) throw invalid(`"outputs[${index}]" names ${path} again`);
    files.push({ path, format });
  });
  return files;
}

/** The file's value, checked key by key in the table's order once no key is unknown. */
export function parseConfigFile(name: string, path: string, text: string): ConfigFile {
  const invalid = (why: string) => new UsageError(`${name}: ${why}`);
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw invalid(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isObject(value)) throw invalid(`the file must hold a JSON object of options; it holds ${kindOf(value)}`);
  const unknown = Object.keys(value).find((key) => !(CONFIG_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined) {
    const nearest = nearestKey(unknown);
    const hint = nearest === undefined ? '' : `\nDid you mean "${nearest}"?`;
    throw invalid(`unknown key ${JSON.stringify(unknown)} (known: ${CONFIG_KEYS.join(', ')})${hint}`);
  }
  const { urls, budget, outputs, render, lab, fail_on, min_score, $schema } = value;
  const config: ConfigFile = { name };
  if (urls !== undefined) {
    if (!Array.isArray(urls) || urls.length === 0 || !urls.every((url) => typeof url === 'string')) {
      throw invalid(`"urls" must be an array of URLs (strings), at least one; got ${shown(urls)}`);
    }
    config.urls = urls;
  }
  if (budget !== undefined) {
    if (!isObject(budget)) throw invalid(`"budget" must be an object, as a --budget file holds; got ${shown(budget)}`);
    config.budget = parseBudget(budget, invalid, 'budget.');
  }
  if (outputs !== undefined) config.outputs = outputFiles(outputs, dirname(path), invalid);
  for (const [key, flag] of [['render', render], ['lab', lab]] as const) {
    if (flag !== undefined && typeof flag !== 'boolean') throw invalid(`"${key}" must be true or false; got ${shown(flag)}`);
  }
  if (typeof render === 'boolean') config.render = render;
  if (typeof lab === 'boolean') config.lab = lab;
  if (fail_on !== undefined) {
    if (fail_on !== 'bad' && fail_on !== 'decent') throw invalid(`"fail_on" must be "bad" or "decent"; got ${shown(fail_on)}`);
    config.failOn = fail_on;
  }
  if (min_score !== undefined) {
    if (typeof min_score !== 'number' || !Number.isInteger(min_score) || min_score < 0 || min_score > 100) {
      throw invalid(`"min_score" must be a whole number from 0 to 100; got ${shown(min_score)}`);
    }
    config.minScore = min_score;
  }
  // Only there for editors (a JSON schema to complete and check against); its value means nothing here.
  if ($schema !== undefined && typeof $schema !== 'string') throw invalid(`"$schema" must be a string; got ${shown($schema)}`);
  return config;
}

/**
 * The config file `analyze` reads: `given` (--config) whatever the command line names, else
 * ./pagegrade.config.json in `cwd` when the command line names no URL (no argument, no --file) and
 * there is one; undefined otherwise.
 */
export async function findConfigFile(given: string | undefined, namesUrls: boolean, cwd: string): Promise<ConfigFile | undefined> {
  if (given === '') throw new UsageError('--config needs a file name.');
  if (given === undefined && namesUrls) return undefined;
  const name = given ?? CONFIG_FILE_NAME;
  const path = resolve(cwd, name);
  const text = await readConfigText(name, path, given === undefined);
  return text === undefined ? undefined : parseConfigFile(name, path, text);
}

/** The file's `outputs`, once known to be the ones written (no --output replaces them): each writable. */
export async function writableConfigOutputs(config: ConfigFile): Promise<OutputFile[]> {
  for (const file of config.outputs ?? []) {
    const why = await unwritable(file.path);
    if (why !== undefined) throw new UsageError(`${config.name}: cannot write "outputs" ${file.path}: ${why}`);
  }
  return config.outputs ?? [];
}
