// Reads the CSV exports back (RFC 4180: CRLF line ends, quoted fields with doubled quotes, CR and LF
// allowed inside quotes), strictly: anything else in the text fails the test that reads it.
import { expect } from 'vitest';

/** The records of a CSV text, each a list of fields; the text must end with CRLF. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let at = 0;
  while (at < text.length) {
    let field = '';
    if (text[at] === '"') {
      at += 1;
      for (;;) {
        const quote = text.indexOf('"', at);
        expect(quote, `an unterminated quoted field at ${at}`).toBeGreaterThanOrEqual(0);
        field += text.slice(at, quote);
        at = quote + 1;
        if (text[at] !== '"') break;
        field += '"';
        at += 1;
      }
    } else {
      const end = text.slice(at).search(/[,\r\n"]/);
      const stop = end === -1 ? text.length : at + end;
      field = text.slice(at, stop);
      at = stop;
      expect(text[at], `a quote inside an unquoted field at ${at}`).not.toBe('"');
    }
    record.push(field);
    if (text[at] === ',') {
      at += 1;
      continue;
    }
    expect(text.slice(at, at + 2), `a record ends in CRLF at ${at}`).toBe('\r\n');
    at += 2;
    records.push(record);
    record = [];
  }
  expect(record, 'the text ends with CRLF').toEqual([]);
  return records;
}

/** The records as objects keyed by the header line's names. */
export function csvObjects(text: string): { header: string[]; rows: Record<string, string>[] } {
  const [header, ...records] = parseCsv(text);
  for (const record of records) expect(record).toHaveLength(header.length);
  return { header, rows: records.map((record) => Object.fromEntries(header.map((name, index) => [name, record[index]]))) };
}
