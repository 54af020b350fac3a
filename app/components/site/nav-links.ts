/** The header's main links, in order; the mobile menu adds Contact. */
export const MAIN_LINKS = [
  { to: '/', label: 'Home', end: true },
  { to: '/music', label: 'Music', end: false },
  { to: '/gallery', label: 'Gallery', end: false },
  // Active for any path starting with /blog (NavLink matches /blog/... too).
  { to: '/blog', label: 'Blog', end: false },
  { to: '/shows', label: 'Shows', end: false },
  { to: '/about', label: 'About', end: false },
] as const;

export const MOBILE_EXTRA_LINKS = [{ to: '/contact', label: 'Contact', end: false }] as const;

/** The footer's Quick Links, in order. */
export const QUICK_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/music', label: 'Music' },
  { to: '/gallery', label: 'Gallery' },
  { to: '/blog', label: 'Blog' },
  { to: '/about', label: 'About' },
  { to: '/contact', label: 'Contact' },
] as const;
