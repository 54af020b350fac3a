import { describe, expect, it } from 'vitest';

import { csvCell, toCsv } from './csv';

describe('CSV export', () => {
  it('quotes every cell and doubles quotes; CRLF rows', () => {
    expect(
      toCsv([
        ['Name', 'Requested'],
        ['Mara "DJ" Quinn', 'Nov 24, 2026, 8:00 PM'],
      ]),
    ).toBe('"Name","Requested"\r\n"Mara ""DJ"" Quinn","Nov 24, 2026, 8:00 PM"\r\n');
  });

  it('keeps commas and newlines inside a cell', () => {
    expect(csvCell('a,b\nc')).toBe('"a,b\nc"');
  });

  it.each(['=HYPERLINK("x")', '+1', '-2+3', '@SUM(A1)', '\tx'])(
    'turns %j into text, not a formula',
    (value) => {
      expect(csvCell(value).startsWith(`"'`)).toBe(true);
    },
  );
});
