// A strict RFC 4180 reader for tests that read a CSV answer back: quoted cells with doubled
// quotes, CRLF line ends; anything else (a stray quote, a bare LF inside an unquoted cell) throws.
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted cell');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        cell += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') throw new Error(`unexpected ${JSON.stringify(text[i])} in an unquoted cell at ${i}`);
        cell += text[i];
        i += 1;
      }
    }
    row.push(cell);
    if (text[i] === ',') {
      i += 1;
    } else if (text.startsWith('\r\n', i)) {
      rows.push(row);
      row = [];
      i += 2;
    } else if (i < text.length) {
      throw new Error(`expected a comma or CRLF at ${i}`);
    }
  }
  if (row.length > 0) throw new Error('the last line does not end with CRLF');
  return rows;
}

/** The rows as objects keyed by the header line's names. */
export function csvRecords(text: string): Array<Record<string, string>> {
  const [header, ...rows] = parseCsv(text);
  if (!header) throw new Error('no header line');
  return rows.map((cells) => {
    if (cells.length !== header.length) throw new Error(`a row of ${cells.length} cells under ${header.length} columns`);
    return Object.fromEntries(header.map((name, index) => [name, cells[index] ?? '']));
  });
}
