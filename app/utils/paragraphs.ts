/**
 * Plain text typed in a textarea as paragraphs: blank lines separate them, single line breaks
 * stay inside one (the newsletter's web page and its email show it the same way).
 */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);
}
