import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';

/** Where the error panel of a section's dialogs leads back to: the section's list. */
const BACK_TO_LIST = {
  blog: { to: '/admin/blog', label: 'Back to posts' },
  gallery: { to: '/admin/gallery', label: 'Back to gallery' },
  messages: { to: '/admin/messages', label: 'Back to messages' },
  newsletter: { to: '/admin/newsletter', label: 'Back to subscribers' },
  shows: { to: '/admin/shows', label: 'Back to shows' },
  tracks: { to: '/admin/tracks', label: 'Back to tracks' },
} as const;

/**
 * The error boundary of a back-office dialog route (a record's preview, edit or delete): the
 * error in the panel, with a link back to its section's list.
 *
 * @example export function ErrorBoundary() { return <DialogErrorBoundary section="gallery" />; }
 */
export function DialogErrorBoundary({ section }: { section: keyof typeof BACK_TO_LIST }) {
  return <GeneralErrorBoundary placement="panel" back={BACK_TO_LIST[section]} />;
}
