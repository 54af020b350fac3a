import { PageHeader } from './section-heading';

/** Layout for the Privacy Policy and Terms of Service pages. */
export function LegalPage({
  title,
  updated,
  children,
}: {
  title: string;
  updated: string;
  children: React.ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} intro={`Last updated ${updated}`} />
      <div className="container max-w-3xl py-12">
        <div className="space-y-8 text-base leading-relaxed text-muted-foreground [&_a]:font-semibold [&_a]:text-primary [&_a]:underline [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-foreground [&_li]:ml-5 [&_li]:list-disc [&_strong]:text-foreground [&_ul]:space-y-2">
          {children}
        </div>
      </div>
    </>
  );
}
