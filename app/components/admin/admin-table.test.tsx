import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { type AdminColumn, AdminTable } from './admin-table';

const rows = [
  { id: 1, name: 'Ann' },
  { id: 2, name: 'Bob' },
];

describe('AdminTable', () => {
  it('heads its columns as the back office writes them, then a row per item', () => {
    const columns: AdminColumn[] = [
      'Name',
      { label: 'Added', wideOnly: true },
      { label: 'Actions', align: 'right' },
    ];
    const people = {
      caption: 'People, newest first',
      columns,
      rows,
      empty: 'Nobody yet.',
    } as const;
    const html = renderToString(
      <AdminTable {...people} testId="people" rowTestId="person">
        {(row) => <th scope="row">{row.name}</th>}
      </AdminTable>,
    );
    expect(html).toContain('<table class="w-full text-left text-sm" data-testid="people">');
    expect(html).toContain('<caption class="sr-only">People, newest first</caption>');
    expect(html).toContain('<th scope="col" class="px-4 py-3 font-semibold">Name</th>');
    expect(html).toContain(
      '<th scope="col" class="hidden px-4 py-3 font-semibold md:table-cell">Added</th>',
    );
    expect(html).toContain(
      '<th scope="col" class="px-4 py-3 text-right font-semibold">Actions</th>',
    );
    expect(
      html.match(/<tr class="border-b border-border last:border-0" data-testid="person">/g),
    ).toHaveLength(2);
    expect(html).not.toContain('<h2');
  });

  it('shows the empty text as a panel, or as a line under its heading', () => {
    const panel = renderToString(
      <AdminTable caption="c" columns={['Name']} rows={[]} empty="Nobody yet.">
        {() => null}
      </AdminTable>,
    );
    expect(panel).toBe(
      '<p class="rounded-lg border border-border bg-card p-8 text-center text-muted-foreground">Nobody yet.</p>',
    );
    const byEmail = {
      rows: [] as { email: string }[],
      rowKey: (row: { email: string }) => row.email,
    };
    const note = renderToString(
      <AdminTable
        heading="People"
        caption="c"
        columns={['Name']}
        empty="Nobody yet."
        {...byEmail}
        emptyStyle="note"
      >
        {() => null}
      </AdminTable>,
    );
    expect(note).toBe(
      '<div><h2 class="mb-3 text-xl font-semibold">People</h2><p class="text-sm text-muted-foreground">Nobody yet.</p></div>',
    );
  });
});
