import type { IconComponent } from '~/components/ui/sprite-icon';
import { cn } from '~/utils/cn';

/**
 * A titled panel: a `<section>` named by its heading (a landmark assistive technology can
 * jump to), with an optional icon, description and footer action (a link or a button).
 */
export function Card({
  title,
  description,
  icon: Icon,
  action,
  className,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  icon?: IconComponent;
  action?: React.ReactNode;
  className?: string;
  children: React.ReactNode;
}) {
  const id = `card-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section
      aria-labelledby={id}
      className={cn('flex flex-col rounded-lg border border-border bg-card p-6', className)}
    >
      <h2 id={id} className="flex items-center gap-2 text-xl font-semibold">
        {Icon ? <Icon aria-hidden="true" className="h-5 w-5 text-primary" /> : null}
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
      <div className="mt-5 flex-1 space-y-5">{children}</div>
      {action ? <div className="mt-5">{action}</div> : null}
    </section>
  );
}
