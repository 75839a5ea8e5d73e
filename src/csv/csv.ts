// CSV exports (format=csv on a list, docs/api.md "Lists and pagination"): RFC 4180 text, streamed row by row,
// safe to open in a spreadsheet. The API and the dashboard send the same files through sendCsv.
//
// - A header line, then one line per row; lines end in CRLF (RFC 4180). No byte order mark.
// - A cell holding a comma, a double quote, CR or LF is quoted, its quotes doubled.
// - A text cell that starts with =, +, -, @, tab or CR gets a ' in front, so a spreadsheet shows it as
//   text instead of running it as a formula (OWASP "CSV injection"). Every text cell is checked,
//   whatever it holds, including one that looks like a number ("-1" becomes "'-1").
// - A number cell is written as the number: it comes from a typed number field, never from text, and
//   cannot hold a formula; a negative one stays a number a spreadsheet can add up. A non-finite
//   number, null and undefined are empty cells; booleans are true and false.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** What one cell may hold. */
export type CsvValue = string | number | boolean | null | undefined;

/** A column of an export: its header and its cell of a row. */
export interface CsvColumn<Row> {
  header: string;
  cell: (row: Row) => CsvValue;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;
/** Lines are sent in chunks of about this many characters rather than one write per row. */
const CHUNK_CHARACTERS = 16 * 1024;

/** One cell, escaped and quoted as needed. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line: the cells joined by commas, ended by CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * The header line and a line per row, as a byte stream. `rows` (an array, or rows read as they go) is
 * read only as fast as the stream is consumed, so a slow client holds back the reads and memory stays
 * at a chunk or so, however many rows there are; a client that goes away ends the reads (the iterator
 * is returned). The first chunk is made before this resolves, so a failure of the first read (the
 * database is down, say) rejects here and is answered as any other error, before anything is sent.
 */
export async function csvStream<Row>(columns: readonly CsvColumn<Row>[], rows: AsyncIterable<Row> | Iterable<Row>): Promise<Readable> {
  const chunks = csvChunks(columns, rows);
  const first = await chunks.next();
  async function* everything(): AsyncGenerator<string> {
    if (first.done !== true) yield first.value;
    yield* chunks;
  }
  return Readable.from(everything(), { objectMode: false });
}

async function* csvChunks<Row>(columns: readonly CsvColumn<Row>[], rows: AsyncIterable<Row> | Iterable<Row>): AsyncGenerator<string> {
  let chunk = csvLine(columns.map((column) => column.header));
  for await (const row of rows) {
    chunk += csvLine(columns.map((column) => column.cell(row)));
    if (chunk.length >= CHUNK_CHARACTERS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/**
 * Sends `stream` (from csvStream) as a CSV attachment named `filename` (a plain name: letters, digits,
 * `.`, `-`, `_`). A read that fails once the file is under way ends the response early (its status is
 * sent by then): the client sees a broken download, and the error is logged.
 */
export function sendCsv(reply: FastifyReply, filename: string, stream: Readable): FastifyReply {
  if (!/^[\w.-]+$/.test(filename)) throw new Error(`not a plain file name: ${filename}`);
  return reply
    .code(200)
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
