/**
 * A blog post's previous and next post links follow the list order (newest first), so
 * "previous" is the post listed before this one (newer) and "next" the one after it (older).
 * The model applies the same rule in `getBlogPostWithNeighbours`.
 */
export function neighboursInList<T extends { slug: string }>(
  list: T[],
  slug: string,
): { previous: T | null; next: T | null } {
  const index = list.findIndex((p) => p.slug === slug);
  if (index === -1) return { previous: null, next: null };
  return { previous: list[index - 1] ?? null, next: list[index + 1] ?? null };
}
