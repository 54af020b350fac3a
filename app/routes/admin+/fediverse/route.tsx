import { parseWithZod } from '@conform-to/zod';
import {
  type ActionFunctionArgs,
  data,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import { redirectWithToast } from '~/auth/toast.server';
import { AdminPage } from '~/components/admin/admin-page';
import { AdminPagination } from '~/components/admin/list-paging';
import { TabLinks } from '~/components/admin/tab-links';
import { fediverseAddress } from '~/fediverse/actor.server';
import { blockActor, blockDomain, unblock } from '~/fediverse/blocks.server';
import { listBlocksPage } from '~/models/fediverse-block.server';
import { listFollowersPage } from '~/models/fediverse-follower.server';
import { SERVER_FAILURE_MESSAGE } from '~/platform/http-errors.server';
import { readForm } from '~/platform/request-body.server';
import { logError } from '~/platform/request-tracking.server';
import { BlockActorSchema, BlockDomainSchema, UnblockSchema } from '~/schemas/fediverse';
import { pageParam } from '~/utils/page-href';
import { adminTitle } from '~/utils/seo/seo';

import { BlockForms, type BlocksActionData } from './block-forms';
import { BlocksTable, FollowersTable } from './tables';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches, 'Fediverse');

const PER_PAGE = 50;
const PATH = '/admin/fediverse';
const BLOCKS = '/admin/fediverse?tab=blocks';

type Tab = 'followers' | 'blocks';

/**
 * The site's followers on the fediverse and the blocks (decision 053), two tabs (links,
 * `?tab=blocks`): the count and a paged list of followers, each with a block of the account and
 * of its domain; forms to block a domain or an account and the paged blocks with unblock.
 * Every form is a real post answered by a redirect with a flash message, or the page with its
 * errors.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const search = new URL(request.url).searchParams;
  const tab: Tab = search.get('tab') === 'blocks' ? 'blocks' : 'followers';
  const page = pageParam(search);
  const [followers, blocks] = await Promise.all([
    listFollowersPage(tab === 'followers' ? page : 1, PER_PAGE),
    tab === 'blocks' ? listBlocksPage(page, PER_PAGE) : null,
  ]);
  return {
    tab,
    address: fediverseAddress(),
    followers: {
      ...followers,
      items: followers.items.map((f) => ({
        id: f.id,
        actorId: f.actorId,
        host: f.host,
        handle: f.handle ?? null,
        name: f.name ?? null,
        since: new Date(f.createdAt).toISOString(),
      })),
    },
    blocks,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readForm(request);
  const intent = formData.get('intent');
  try {
    if (intent === 'unblock') {
      const submission = parseWithZod(formData, { schema: UnblockSchema });
      if (submission.status !== 'success') {
        return redirectWithToast(BLOCKS, { type: 'error', title: 'Nothing to unblock' });
      }
      const { kind, value } = submission.value;
      await unblock(kind, value);
      return redirectWithToast(BLOCKS, {
        type: 'success',
        title: 'Unblocked',
        description: `${value} may follow again.`,
      });
    }
    if (intent === 'block-actor') {
      const submission = parseWithZod(formData, { schema: BlockActorSchema });
      if (submission.status !== 'success') {
        return data<BlocksActionData>(
          { form: 'block-actor', result: submission.reply() },
          { status: 400 },
        );
      }
      const { removed } = await blockActor(submission.value.actor);
      return redirectWithToast(BLOCKS, {
        type: 'success',
        title: 'Account blocked',
        description: removed
          ? `${submission.value.actor} no longer follows and is refused.`
          : `${submission.value.actor} is refused.`,
      });
    }
    const submission = parseWithZod(formData, { schema: BlockDomainSchema });
    if (submission.status !== 'success') {
      return data<BlocksActionData>(
        { form: 'block-domain', result: submission.reply() },
        { status: 400 },
      );
    }
    const { domain, removed } = await blockDomain(submission.value.domain);
    return redirectWithToast(BLOCKS, {
      type: 'success',
      title: 'Domain blocked',
      description: `${domain} is refused${removed > 0 ? `; ${removed} follower(s) removed` : ''}.`,
    });
  } catch (error) {
    logError(error, request, 'a fediverse block failed');
    return redirectWithToast(PATH, {
      type: 'error',
      title: 'Failed to save',
      description: SERVER_FAILURE_MESSAGE,
    });
  }
}

export default function AdminFediverse() {
  const { tab, address, followers, blocks } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  // A refused block form shows on the blocks tab, whatever the URL said.
  const current: Tab = actionData ? 'blocks' : tab;
  return (
    <AdminPage headingId="fediverse-heading" title="Fediverse" back stacked>
      <p className="text-muted-foreground">
        People on Mastodon and other fediverse servers follow the site as{' '}
        <strong className="font-semibold text-foreground" data-testid="fediverse-address">
          {address}
        </strong>
        .{' '}
        <span data-testid="followers-count">
          {`${followers.total} ${followers.total === 1 ? 'follower' : 'followers'}`}
        </span>
        .
      </p>
      <TabLinks
        label="Fediverse sections"
        tabs={[
          { to: PATH, label: 'Followers', current: current === 'followers' },
          { to: BLOCKS, label: 'Blocks', current: current === 'blocks' },
        ]}
      />
      {current === 'followers' ? (
        <>
          <FollowersTable items={followers.items} />
          <AdminPagination path={PATH} page={followers.page} pageCount={followers.pageCount} />
        </>
      ) : (
        <>
          <BlockForms actionData={actionData} />
          <BlocksTable items={blocks?.items ?? []} />
          {blocks ? (
            <AdminPagination
              path={PATH}
              params={{ tab: 'blocks' }}
              page={blocks.page}
              pageCount={blocks.pageCount}
            />
          ) : null}
        </>
      )}
    </AdminPage>
  );
}
