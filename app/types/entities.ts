/**
 * The JSON shapes of the site's entities, as loaders and the /api routes send them
 * (numeric `id`, `createdAt`). Dates are ISO 8601 strings. Never a password hash, `_id` or `__v`.
 */
export type TrackJSON = {
  id: number;
  title: string;
  artist: string;
  album: string | null;
  /** Release type shown on footer cards: Single, EP, Album, Remix, Live. */
  type: string;
  /** m:ss */
  duration: string;
  coverImage: string;
  audioFile: string;
  featured: boolean;
  createdAt: string;
};

export type GalleryImageJSON = {
  id: number;
  title: string;
  description: string | null;
  imageUrl: string;
  createdAt: string;
};

export const BLOG_CATEGORIES = ['NEWS', 'EVENTS', 'REVIEWS'] as const;
export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

export type BlogPostJSON = {
  id: number;
  title: string;
  slug: string;
  content: string;
  excerpt: string;
  imageUrl: string;
  category: string;
  createdAt: string;
};

export type SubscriberJSON = { id: number; name: string; email: string; createdAt: string };

/** A recorded newsletter issue ('recorded': stored, not mailed). */
export type NewsletterJSON = {
  id: number;
  subject: string;
  content: string;
  sentAt: string;
  sentCount: number;
  delivery: 'recorded';
  createdAt: string;
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
