/** The message of an unexpected error, for an administrator's toast or alert. */
export const errorMessage = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : 'Unknown error';
