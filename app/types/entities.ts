/**
 * The JSON shapes of the site's entities, as loaders and the /api routes send them
 * (numeric `id`, `createdAt`). Dates are ISO 8601 strings. Never a password hash, `_id` or `__v`.
 */
/**
 * Who may play a track or read a post: everyone, or logged-in members. With `publicAt`
 * (a YYYY-MM-DD day in the site's time zone) a members-only item is early access: it becomes
 * public on that day, computed when it is read (see `app/utils/access.ts`).
 */
export const VISIBILITIES = ['public', 'members'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/** One row of a mix's tracklist: where it starts (seconds from the top) and what plays. */
export type TracklistRow = {
  start: number;
  artist: string;
  title: string;
  label: string | null;
};

/**
 * Whether a track can be played (decision 035): an upload that needs a stream of its own (a WAV,
 * an MP3 above 320 kbps) is 'processing' until its 192 kbps MP3 is ready; 'failed' when that
 * could not be made (admins see why).
 */
export const AUDIO_STATUSES = ['processing', 'ready', 'failed'] as const;
export type AudioStatus = (typeof AUDIO_STATUSES)[number];

type TrackFields = {
  id: number;
  title: string;
  artist: string;
  album: string | null;
  /** Release type shown on footer cards and the track page: one of TRACK_TYPES (schemas/track). */
  type: string;
  /** m:ss (h:mm:ss for long sets), as shown. */
  duration: string;
  /** The same length in whole seconds (0 when unknown), for feeds, JSON-LD and deep links. */
  durationSeconds: number;
  /** Liner notes or a mix's description (plain text, paragraphs split on blank lines). */
  description: string | null;
  /** A mix's tracklist, in play order; [] for none. */
  tracklist: TracklistRow[];
  /** Only a 'ready' track can be played; the lists show "Processing…" instead. */
  audioStatus: AudioStatus;
  coverImage: string;
  featured: boolean;
  visibility: Visibility;
  publicAt: string | null;
  createdAt: string;
};

/**
 * A track as its reader may see it. `locked: false`: the audio file is there. `locked: true`:
 * a members-only track seen by a visitor without an account: no `audioFile`. A track still
 * processing (or failed) is shown with `audioFile: null` (`PendingTrackJSON`): its upload is
 * not a URL anyone but an admin may fetch, and its stream does not exist yet.
 */
export type TrackJSON = TrackFields & { audioFile: string; locked: false };
export type PendingTrackJSON = TrackFields & { audioFile: null; locked: false };
export type LockedTrackJSON = TrackFields & { locked: true };
export type TrackView = TrackJSON | PendingTrackJSON | LockedTrackJSON;

export type GalleryImageJSON = {
  id: number;
  title: string;
  description: string | null;
  imageUrl: string;
  createdAt: string;
};

export const BLOG_CATEGORIES = ['NEWS', 'EVENTS', 'REVIEWS'] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

type BlogPostFields = {
  id: number;
  title: string;
  slug: string;
  excerpt: string;
  imageUrl: string;
  category: string;
  visibility: Visibility;
  publicAt: string | null;
  createdAt: string;
};

/** A post as its reader may see it: a locked (members-only) post has no `content`. */
export type BlogPostJSON = BlogPostFields & { content: string; locked: false };
export type LockedBlogPostJSON = BlogPostFields & { locked: true };
export type BlogPostView = BlogPostJSON | LockedBlogPostJSON;

/**
 * active: receives the newsletter; pending: signed up, confirmation link not followed yet
 * (double opt-in); unsubscribed: left through an unsubscribe link; bounced: the mail server
 * refused the address for good.
 */
export const SUBSCRIBER_STATUSES = ['active', 'pending', 'unsubscribed', 'bounced'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

export type SubscriberJSON = {
  id: number;
  name: string;
  email: string;
  status: SubscriberStatus;
  createdAt: string;
};

/**
 * A newsletter issue. `delivery` says how it went out: 'smtp' (an SMTP server), 'outbox'
 * (written as .eml files, no SMTP server configured) or 'recorded' (stored before the site
 * could send email; never mailed).
 */
export type NewsletterJSON = {
  id: number;
  subject: string;
  slug: string;
  content: string;
  sentAt: string;
  /** Recipients the issue was addressed to when it was sent. */
  sentCount: number;
  delivery: 'smtp' | 'outbox' | 'recorded';
  createdAt: string;
};

export const NEWSLETTER_STATES = ['queued', 'sending', 'sent', 'failed'] as const;
export type NewsletterState = (typeof NEWSLETTER_STATES)[number];

/** How far the sending of an issue has got (GET /api/admin/newsletter/{id}). */
export type NewsletterProgressJSON = {
  id: number;
  subject: string;
  state: NewsletterState;
  total: number;
  sent: number;
  failed: number;
  queued: number;
  /** Recipients who unsubscribed (or were deleted) before their copy went out. */
  skipped: number;
};

export const CONTACT_SUBJECTS = [
  'Booking Inquiry',
  'Media Request',
  'Collaboration',
  'General Question',
] as const;

export type ContactMessageJSON = {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  createdAt: string;
};

export type ShowJSON = {
  id: number;
  title: string;
  venue: string;
  location: string;
  /** YYYY-MM-DD */
  date: string;
  /** free text such as 8:00 PM */
  time: string;
  ticketUrl: string | null;
  description: string | null;
  /** Spots on the members' guest list; 0 = no guest list (decision 018). */
  guestListCapacity: number;
  /** Spots taken. */
  guestListCount: number;
  createdAt: string;
};

/** A member's spot on a show's guest list. */
export type GuestListSpotJSON = {
  showId: number;
  userId: number;
  username: string;
  createdAt: string;
};

export const FONT_CHOICES = [
  'Inter',
  'Orbitron',
  'Montserrat',
  'Roboto',
  'Raleway',
  'Poppins',
  'Nunito',
  'Lato',
  'Syncopate',
  'Audiowide',
  'Righteous',
  'Permanent Marker',
] as const;
export type FontChoice = (typeof FONT_CHOICES)[number];
export const THEME_VARIANTS = ['professional', 'tint', 'vibrant'] as const;
export const THEME_APPEARANCES = ['dark', 'light', 'system'] as const;

export type ThemeJSON = {
  primary: string;
  variant: (typeof THEME_VARIANTS)[number];
  appearance: (typeof THEME_APPEARANCES)[number];
  radius: number;
  headerFont: FontChoice;
  bodyFont: FontChoice;
  heroTitle: string;
  heroText: string;
  footerText: string;
  /** Featured track rotates every Monday at midnight (America/New_York) when on. */
  weeklyRotation: boolean;
};

export type UserJSON = { id: number; username: string; isAdmin: boolean };

/**
 * A release as the site footer shows it: the root loader sends only this (issue 19), with the
 * cover's smallest copy for the 40 px thumbnail.
 */
export type FooterRelease = Pick<TrackView, 'id' | 'title' | 'type' | 'locked'> & {
  thumbnail: string;
};

/** An upcoming show as the site footer shows it. */
export type FooterShow = Pick<ShowJSON, 'id' | 'venue' | 'location' | 'date'>;
