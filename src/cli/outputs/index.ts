// `--output <file>` (repeatable) and `--format`: report files for pipelines, each in a format chosen
// by its extension or by a `--format` just before it. Checked before anything is analysed, so a
// wrong name or a path that cannot be written is a usage error (exit code 2), not a lost run.
import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError, type ParsedArgs } from '../command.ts';
import { renderJson } from '../analyze-output.ts';
import type { UrlOutcome } from '../url-outcome.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderSarif } from './sarif.ts';

const FORMATS = ['json', 'html', 'junit', 'sarif'] as const;
type OutputFormat = (typeof FORMATS)[number];

export interface OutputFile {
  path: string;
  format: OutputFormat;
}

/** Longest first: ".sarif.json" is SARIF and ".junit.xml" JUnit before ".json" and ".xml" are looked at. */
const EXTENSIONS: readonly [string, OutputFormat][] = [
  ['.sarif.json', 'sarif'],
  ['.junit.xml', 'junit'],
  ['.sarif', 'sarif'],
  ['.json', 'json'],
  ['.html', 'html'],
  ['.xml', 'junit'],
];

const RENDERERS: Record<OutputFormat, (outcomes: readonly UrlOutcome[]) => string> = {
  json: renderJson,
  html: renderHtml,
  junit: renderJunit,
  sarif: renderSarif,
};

function formatOption(value: string): OutputFormat {
  if (!(FORMATS as readonly string[]).includes(value)) throw new UsageError(`--format must be json, html, junit or sarif; got "${value}".`);
  return value as OutputFormat;
}

/** The format a file's name ends in, or undefined when it ends in none of them. */
export function formatFromName(path: string): OutputFormat | undefined {
  const lower = path.toLowerCase();
  return EXTENSIONS.find(([extension]) => lower.endsWith(extension))?.[1];
}

function formatOf(path: string, given: OutputFormat | undefined): OutputFormat {
  if (given !== undefined) return given;
  const found = formatFromName(path);
  if (!found) {
    throw new UsageError(
      `--output ${path}: cannot tell the format from the name; end it in .json, .html, .junit.xml, .xml, .sarif or .sarif.json, or put --format json|html|junit|sarif before it.`,
    );
  }
  return found;
}

/** Why a file cannot be written there, or undefined when it can (as far as can be known before writing). */
export async function unwritable(path: string): Promise<string | undefined> {
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) return 'it is a directory';
  const parent = dirname(path);
  const directory = await stat(parent).catch(() => undefined);
  if (!directory?.isDirectory()) return `${parent} is not a directory`;
  try {
    await access(existing ? path : parent, constants.W_OK);
    return undefined;
  } catch {
    return existing ? 'the file is not writable' : `${parent} is not writable`;
  }
}

/** The files of `--output`, in order; a `--format` applies to the one `--output` that follows it. */
export async function readOutputFiles(args: ParsedArgs): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  let format: OutputFormat | undefined;
  for (const { name, value = '' } of args.options ?? []) {
    if (name === 'format') {
      if (format !== undefined) throw new UsageError(`--format ${format} is not followed by the --output it applies to.`);
      format = formatOption(value);
    } else if (name === 'output') {
      if (value === '') throw new UsageError('--output needs a file name.');
      const path = resolve(value);
      if (files.some((file) => file.path === path)) throw new UsageError(`--output ${value} is given twice.`);
      files.push({ path, format: formatOf(value, format) });
      format = undefined;
    }
  }
  if (format !== undefined) throw new UsageError(`--format ${format} is not followed by the --output it applies to.`);
  for (const file of files) {
    const why = await unwritable(file.path);
    if (why !== undefined) throw new UsageError(`Cannot write --output ${file.path}: ${why}.`);
  }
  return files;
}

export async function writeOutputFiles(files: readonly OutputFile[], outcomes: readonly UrlOutcome[]): Promise<void> {
  for (const file of files) {
    try {
      await writeFile(file.path, RENDERERS[file.format](outcomes));
    } catch (error) {
      throw new UsageError(`Cannot write --output ${file.path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
