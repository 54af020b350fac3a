/**
 * Form constants with no zod in them, so client code can import them without pulling zod into
 * the browser bundle. `~/schemas/common` re-exports them for the schemas.
 */

/**
 * Field bounds shared by every schema (enforced on the server, mirrored as HTML
 * constraints on the client).
 */
export const LIMITS = {
  name: 100,
  email: 254,
  subject: 200,
  message: 5_000,
  title: 200,
  shortText: 200,
  description: 2_000,
  /** A track's liner notes or a mix's description. */
  trackDescription: 5_000,
  excerpt: 300,
  blogContent: 100_000,
  url: 2_048,
  username: 50,
  password: 200,
} as const;
