const DEFAULT_REDIRECT = '/';

/**
 * Only same-site paths are allowed as redirect targets ("/admin", not "//evil.com",
 * "https://evil.com" or "/\\evil.com").
 */
export function safeRedirect(
  to: FormDataEntryValue | string | null | undefined,
  fallback = DEFAULT_REDIRECT,
): string {
  if (!to || typeof to !== 'string') return fallback;
  const target = to.trim();
  if (!target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
    return fallback;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
  if (/[\u0000-\u001f]/.test(target)) return fallback;
  return target;
}
