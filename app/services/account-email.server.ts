import { getUserEmail, setUserEmail } from '~/models/user.server';
import {
  AlreadySubscribedError,
  findSubscriberByEmail,
  unsubscribeSubscriber,
} from '~/models/subscriber.server';
import type { UserJSON } from '~/types/entities';
import { subscribe } from './mail.server';

/**
 * The account's email and its newsletter toggle (/account, decision 020).
 *
 * The toggle is the newsletter list seen from the account: on means the account's address
 * is on the list (active, or pending its confirmation when sign-ups must be confirmed); off
 * means it is not. The list itself stays the one the public form feeds, with the same rules.
 */
export type AccountNewsletter = 'subscribed' | 'pending' | 'off';

const onTheList = (status: string | undefined) => status === 'active' || status === 'pending';

/** The toggle as the list's entry for the address says it (none: off). */
const newsletterOf = (entry: { status: string } | null | undefined): AccountNewsletter =>
  entry?.status === 'active' ? 'subscribed' : entry?.status === 'pending' ? 'pending' : 'off';

export async function getAccountEmail(
  userId: number,
): Promise<{ email: string | null; newsletter: AccountNewsletter }> {
  const email = await getUserEmail(userId);
  return { email, newsletter: email ? newsletterOf(await findSubscriberByEmail(email)) : 'off' };
}

/**
 * Save the address (null removes it) and apply the toggle. A changed or removed address
 * takes its subscription along: the old one leaves the list. Turning it on signs the address
 * up as the public form does (a confirmation email first when double opt-in is on); turning
 * it off unsubscribes it.
 */
export async function saveAccountEmail(
  user: UserJSON,
  input: { email: string | null; newsletter: boolean },
  request: Request | undefined,
): Promise<{ email: string | null; newsletter: AccountNewsletter }> {
  const before = await getUserEmail(user.id);
  const email = input.email?.trim() || null;
  await setUserEmail(user.id, email);

  if (before && before.toLowerCase() !== email?.toLowerCase()) {
    const old = await findSubscriberByEmail(before);
    if (old && onTheList(old.status)) await unsubscribeSubscriber(old.id);
  }
  if (!email) return { email, newsletter: 'off' };

  const entry = await findSubscriberByEmail(email);
  if (!input.newsletter) {
    if (entry && onTheList(entry.status)) await unsubscribeSubscriber(entry.id);
    return { email, newsletter: 'off' };
  }
  if (entry && onTheList(entry.status)) return { email, newsletter: newsletterOf(entry) };
  try {
    const { mustConfirm } = await subscribe({ name: user.username, email }, request);
    return { email, newsletter: mustConfirm ? 'pending' : 'subscribed' };
  } catch (error) {
    // Signed up in the meantime (another tab, the public form): it is on the list.
    if (error instanceof AlreadySubscribedError) return { email, newsletter: 'subscribed' };
    throw error;
  }
}
