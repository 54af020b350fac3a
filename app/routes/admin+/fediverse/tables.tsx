import { Form } from '@remix-run/react';

import { AdminTable } from '~/components/admin/admin-table';
import { Button } from '~/components/ui/button';
import { formatMessageDate } from '~/utils/time';

type FollowerRow = {
  id: number;
  actorId: string;
  host: string;
  handle: string | null;
  name: string | null;
  since: string;
};

type BlockRow = { kind: 'domain' | 'actor'; value: string; createdAt: string };

const cell = 'px-4 py-3';

/** A remote address, as a link only when it is http(s); remote text is printed as text. */
function RemoteLink({ href, children }: { href: string; children: React.ReactNode }) {
  if (!/^https?:\/\//i.test(href)) return <span className="break-all">{children}</span>;
  return (
    <a
      href={href}
      rel="nofollow noopener noreferrer"
      target="_blank"
      className="break-all underline-offset-4 hover:underline"
    >
      {children}
    </a>
  );
}

function PostButton({
  fields,
  label,
  children,
}: {
  fields: Record<string, string>;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <Form method="post" className="inline">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="outline" size="sm" aria-label={label}>
        {children}
      </Button>
    </Form>
  );
}

/** The followers, newest first, each with a block of the account and of its domain. */
export function FollowersTable({ items }: { items: FollowerRow[] }) {
  return (
    <AdminTable
      caption="Followers, newest first"
      columns={['Account', 'Following since', { label: 'Actions', align: 'right' }]}
      rows={items}
      empty="Nobody follows the site yet."
      testId="followers-table"
    >
      {(f) => {
        const who = f.handle ?? f.actorId;
        return (
          <>
            <th scope="row" className={`${cell} font-medium`}>
              <RemoteLink href={f.actorId}>{who}</RemoteLink>
              {f.name ? (
                <span className="block font-normal text-muted-foreground">{f.name}</span>
              ) : null}
            </th>
            <td className={`${cell} whitespace-nowrap`}>
              <time dateTime={f.since}>{formatMessageDate(f.since)}</time>
            </td>
            <td className={cell}>
              <div className="flex flex-wrap justify-end gap-2">
                <PostButton
                  fields={{ intent: 'block-actor', actor: f.actorId }}
                  label={`Block ${who}`}
                >
                  Block
                </PostButton>
                <PostButton
                  fields={{ intent: 'block-domain', domain: f.host }}
                  label={`Block the domain ${f.host}`}
                >
                  Block {f.host}
                </PostButton>
              </div>
            </td>
          </>
        );
      }}
    </AdminTable>
  );
}

/** The blocks, newest first, each with its unblock. */
export function BlocksTable({ items }: { items: BlockRow[] }) {
  return (
    <AdminTable
      caption="Blocked domains and accounts, newest first"
      columns={['Blocked', 'Kind', 'Since', { label: 'Actions', align: 'right' }]}
      rows={items}
      rowKey={(b) => `${b.kind}:${b.value}`}
      empty="Nothing is blocked."
      testId="blocks-table"
    >
      {(b) => (
        <>
          <th scope="row" className={`${cell} break-all font-medium`}>
            {b.value}
          </th>
          <td className={cell}>{b.kind === 'domain' ? 'Domain' : 'Account'}</td>
          <td className={`${cell} whitespace-nowrap`}>
            <time dateTime={b.createdAt}>{formatMessageDate(b.createdAt)}</time>
          </td>
          <td className={`${cell} text-right`}>
            <PostButton
              fields={{ intent: 'unblock', kind: b.kind, value: b.value }}
              label={`Unblock ${b.value}`}
            >
              Unblock
            </PostButton>
          </td>
        </>
      )}
    </AdminTable>
  );
}
