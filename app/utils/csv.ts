/**
 * CSV (RFC 4180) for exports opened in spreadsheets: every cell quoted, quotes doubled, CRLF
 * line ends. A cell starting with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with
 * `'` so a spreadsheet shows it as text instead of running it as a formula (CSV injection).
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
