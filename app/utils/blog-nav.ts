/**
 * A blog post's previous and next links follow the list order (newest first), so "previous"
 * is the post listed before this one (newer) and "next" the one after it (older); a post that
 * is not in the list has neither. `getBlogPostWithNeighbours` (the model) applies it.
 */
export function neighboursInList<T extends { slug: string }>(
  list: T[],
  slug: string,
): { previous: T | null; next: T | null } {
  const index = list.findIndex((p) => p.slug === slug);
  if (index === -1) return { previous: null, next: null };
  return { previous: list[index - 1] ?? null, next: list[index + 1] ?? null };
}
