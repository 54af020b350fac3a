/**
 * An admin list as a grid of cards (blog posts, gallery images): one `<li>` a record, with the
 * list's test id, or the line that says there are none.
 */
export function CardGrid<T extends { id: number }>({
  items,
  empty,
  testId,
  columns,
  column = false,
  children,
}: {
  items: readonly T[];
  /** The line shown when there are none, e.g. 'No posts found'. */
  empty: string;
  testId: string;
  /** The grid's columns per breakpoint, e.g. 'md:grid-cols-2 xl:grid-cols-3'. */
  columns: string;
  /** Each card a flex column (its body can grow, its buttons sit at the bottom). */
  column?: boolean;
  /** A card's content. */
  children: (item: T) => React.ReactNode;
}) {
  if (items.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-border p-10 text-center text-muted-foreground">
        {empty}
      </p>
    );
  }
  const card = 'overflow-hidden rounded-lg border border-border bg-card';
  return (
    <ul className={`grid gap-4 ${columns}`}>
      {items.map((item) => (
        <li key={item.id} data-testid={testId} className={column ? `flex flex-col ${card}` : card}>
          {children(item)}
        </li>
      ))}
    </ul>
  );
}

/**
 * A card's image on top, lazily loaded and covering its box; `className` gives the box (its
 * aspect), `children` what lies over the image (a badge, a button).
 */
export function CardCover({
  src,
  alt,
  className,
  children,
}: {
  src: string;
  alt: string;
  className: string;
  children?: React.ReactNode;
}) {
  return (
    <div className={className}>
      <img src={src} alt={alt} loading="lazy" className="h-full w-full object-cover" />
      {children}
    </div>
  );
}
