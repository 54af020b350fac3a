import { Pagination } from '~/components/site/pagination';

/** The two lists of /shows, each paged by its own parameter (the other's page kept). */
const SHOW_LISTS = {
  upcoming: {
    id: 'more-shows-title',
    title: 'More Upcoming Shows',
    label: 'More upcoming shows pages',
    other: 'past',
  },
  past: {
    id: 'past-shows-title',
    title: 'Past Shows',
    label: 'Past shows pages',
    other: 'upcoming',
  },
} as const;

type ShowPages = Record<
  'upcomingPage' | 'upcomingPageCount' | 'pastPage' | 'pastPageCount',
  number
>;

/** One of them: its heading, its rows (`children`) and its pages. */
export function ShowList({
  kind,
  pages,
  children,
}: {
  kind: keyof typeof SHOW_LISTS;
  pages: ShowPages;
  children: React.ReactNode;
}) {
  const list = SHOW_LISTS[kind];
  const otherPage = pages[`${list.other}Page`];
  return (
    <section aria-labelledby={list.id}>
      <h2 id={list.id} className="mb-6 text-2xl font-bold md:text-3xl">
        {list.title}
      </h2>
      <ul className={kind === 'past' ? 'space-y-4 opacity-90' : 'space-y-4'}>{children}</ul>
      <Pagination
        label={list.label}
        path="/shows"
        params={{ [list.other]: otherPage > 1 ? otherPage : null }}
        pageName={kind}
        page={pages[`${kind}Page`]}
        pageCount={pages[`${kind}PageCount`]}
      />
    </section>
  );
}
