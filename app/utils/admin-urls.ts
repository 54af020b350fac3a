/**
 * The admin lists keep their tab in the URL (`?tab=featured`, `?category=NEWS`). Their
 * child dialogs (new, edit, delete) carry it along, so closing or finishing a dialog goes
 * back to the list the admin came from.
 */
function withParam(
  base: string,
  name: string,
  value: string | null | undefined,
  allowed: readonly string[],
) {
  return value && allowed.includes(value)
    ? `${base}?${new URLSearchParams({ [name]: value })}`
    : base;
}

const param = (url: string, name: string) => new URL(url, 'http://x').searchParams.get(name);

export const TRACK_TABS = ['featured'] as const;
export const tracksListUrl = (url: string) =>
  withParam('/admin/tracks', 'tab', param(url, 'tab'), TRACK_TABS);

export const galleryListUrl = () => '/admin/gallery';

export const BLOG_TAB_CATEGORIES = ['NEWS', 'EVENTS', 'REVIEWS'] as const;
export const blogListUrl = (url: string) =>
  withParam('/admin/blog', 'category', param(url, 'category'), BLOG_TAB_CATEGORIES);

/** The query string to append to links to a list's children (`?tab=featured` or ''). */
export const keepSearch = (listUrl: string) => {
  const i = listUrl.indexOf('?');
  return i === -1 ? '' : listUrl.slice(i);
};

/** The subscriber list, keeping the search the admin came from. */
export const subscribersListUrl = (url: string) => {
  const q = param(url, 'q')?.trim();
  return q ? `/admin/newsletter?${new URLSearchParams({ q })}` : '/admin/newsletter';
};
