/** Escape a user string for use inside a RegExp (search boxes, file-name patterns). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
