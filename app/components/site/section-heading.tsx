import { Link } from '@remix-run/react';

import { ArrowRight } from '~/components/site/icons';
import { cn } from '~/utils/cn';

/** A section's h2 with an optional intro and a "see all" link. */
export function SectionHeading({
  id,
  title,
  intro,
  link,
  className,
}: {
  id?: string;
  title: string;
  intro?: React.ReactNode;
  link?: { to: string; label: string };
  className?: string;
}) {
  return (
    <div className={cn('section-head', className)}>
      <div>
        <h2 id={id} className="section-title">
          {title}
        </h2>
        {intro ? <p className="mt-2 max-w-2xl text-muted-foreground">{intro}</p> : null}
      </div>
      {link ? (
        <Link
          to={link.to}
          className="inline-flex min-h-9 items-center gap-1 font-semibold text-primary hover:underline"
        >
          {link.label}
          <ArrowRight aria-hidden="true" className="h-4 w-4" />
        </Link>
      ) : null}
    </div>
  );
}

/**
 * A section of a page under its `SectionHeading` (named by it), with the section's own content,
 * or `empty` as a line of text when there is nothing to show.
 */
export function HeadedSection({
  id,
  title,
  intro,
  link,
  className,
  empty,
  children,
}: {
  id: string;
  title: string;
  intro?: React.ReactNode;
  link?: { to: string; label: string };
  className: string;
  empty?: string | null;
  children?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className={className}>
      <SectionHeading id={id} title={title} intro={intro} link={link} />
      {empty ? <p className="text-muted-foreground">{empty}</p> : children}
    </section>
  );
}

/** The top of an inner page: its single h1 and an intro, clear of the fixed header. */
export function PageHeader({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div className="border-b border-border bg-gradient-to-b from-primary/10 to-transparent pb-10 pt-28">
      <div className="container">
        <h1 className="text-4xl font-bold tracking-wide md:text-5xl">{title}</h1>
        {intro ? <p className="mt-3 max-w-2xl text-lg text-muted-foreground">{intro}</p> : null}
        {children}
      </div>
    </div>
  );
}

/** An empty or error state: a title and a line of text. */
export function EmptyState({
  title,
  text,
  children,
  role,
}: {
  title: string;
  text?: React.ReactNode;
  children?: React.ReactNode;
  role?: 'alert' | 'status';
}) {
  return (
    <div
      role={role}
      className="rounded-lg border border-dashed border-border bg-card/50 px-6 py-12 text-center"
    >
      <h2 className="text-xl font-bold">{title}</h2>
      {text ? <p className="mx-auto mt-2 max-w-xl text-muted-foreground">{text}</p> : null}
      {children}
    </div>
  );
}
