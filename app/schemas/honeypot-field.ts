/**
 * Form honeypot: a field real people never see or fill in. Its own module (no zod), shared by
 * the Honeypot component and the schemas (`~/schemas/common` re-exports it).
 */
export const HONEYPOT_FIELD = 'website';
