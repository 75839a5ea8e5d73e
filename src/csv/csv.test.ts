import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvStream, type CsvColumn } from './csv.ts';

/** The stream read to its end, as text. */
async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8');
}

async function* rowsOf<T>(rows: readonly T[]): AsyncGenerator<T> {
  for (const row of rows) yield row;
}

describe('csvCell', () => {
  it('leaves plain text as it is', () => {
    expect(csvCell('https://example.com/pricing')).toBe('https://example.com/pricing');
    expect(csvCell('example.com:8080')).toBe('example.com:8080');
    expect(csvCell('')).toBe('');
  });

  it('prefixes a text cell that starts with =, +, -, @, tab or CR with a quote, so no spreadsheet runs it', () => {
    expect(csvCell('=HYPERLINK("http://evil.test","x")')).toBe(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    // CR needs quotes too (after the prefix).
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    // Text that looks like a negative number is text: prefixed like any other.
    expect(csvCell('-1')).toBe("'-1");
  });

  it('prefixes only at the start of the cell', () => {
    expect(csvCell('a=b+c-d@e')).toBe('a=b+c-d@e');
    expect(csvCell(' =1')).toBe(' =1');
  });

  it('quotes cells with a comma, a quote, CR or LF, doubling the quotes (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('"')).toBe('""""');
    expect(csvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvCell('line 1\r\nline 2')).toBe('"line 1\r\nline 2"');
    expect(csvCell('ends in CR\r')).toBe('"ends in CR\r"');
  });

  it('keeps unicode as it is', () => {
    expect(csvCell('https://bücher.example/ß?q=日本語')).toBe('https://bücher.example/ß?q=日本語');
    expect(csvCell('emoji 🚀, comma')).toBe('"emoji 🚀, comma"');
    // U+2212 MINUS SIGN is not the hyphen-minus spreadsheets read as a formula.
    expect(csvCell('−1 minus sign')).toBe('−1 minus sign');
  });

  it('writes numbers as numbers, negative ones included, and nothing for null, undefined or a non-finite number', () => {
    expect(csvCell(86)).toBe('86');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(1.5)).toBe('1.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('writes booleans as true and false', () => {
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
  });
});

describe('csvLine', () => {
  it('joins the cells with commas and ends the line with CRLF', () => {
    expect(csvLine([1, 'a,b', null, '=x', false])).toBe(`1,"a,b",,'=x,false\r\n`);
    expect(csvLine([])).toBe('\r\n');
  });
});

describe('csvStream', () => {
  interface Row {
    id: number;
    name: string | null;
  }
  const columns: CsvColumn<Row>[] = [
    { header: 'id', cell: (row) => row.id },
    { header: 'name', cell: (row) => row.name },
  ];

  it('writes the header line, then one line per row', async () => {
    const stream = await csvStream(columns, rowsOf<Row>([{ id: 1, name: 'a' }, { id: 2, name: null }, { id: 3, name: '@x, "y"' }]));
    expect(await text(stream)).toBe(`id,name\r\n1,a\r\n2,\r\n3,"'@x, ""y"""\r\n`);
  });

  it('takes the rows as an array too', async () => {
    expect(await text(await csvStream(columns, [{ id: 1, name: 'a' }]))).toBe('id,name\r\n1,a\r\n');
  });

  it('writes the header line alone for no rows', async () => {
    expect(await text(await csvStream(columns, rowsOf<Row>([])))).toBe('id,name\r\n');
  });

  it('reads rows only as the stream is consumed, and stops reading when the stream is destroyed', async () => {
    let read = 0;
    let finished = false;
    async function* many(): AsyncGenerator<Row> {
      try {
        for (let id = 1; id <= 1_000_000; id++) {
          read += 1;
          yield { id, name: 'x'.repeat(100) };
        }
      } finally {
        finished = true;
      }
    }
    const stream = await csvStream(columns, many());
    // The first chunk (about 16 KB) is made before csvStream resolves; nothing more until someone reads.
    const before = read;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(1_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(read).toBeLessThan(before + 2_000);
    for await (const _chunk of stream) break; // destroys the stream
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(true);
    expect(read).toBeLessThan(10_000);
  });

  it('rejects when the first read fails, before anything is sent', async () => {
    async function* failing(): AsyncGenerator<Row> {
      throw new Error('database down');
    }
    await expect(csvStream(columns, failing())).rejects.toThrow('database down');
  });
});
