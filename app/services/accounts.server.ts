import { Authenticator } from 'remix-auth';
import { FormStrategy } from 'remix-auth-form';

import { credentialsRequest } from '~/api/api.server';
import { createUserSession } from '~/auth/auth.server';
import { removeFavouritesOfUser } from '~/models/favourite.server';
import { removeGuestListSpotsOfUser } from '~/models/guest-list.server';
import { revokeFeedTokens } from '~/models/podcast-feed-token.server';
import { deleteSessionsOfUser } from '~/models/session.server';
import {
  createUser,
  deleteUser,
  markUserDeleting,
  setPassword,
  UsernameTakenError,
  verifyLogin,
} from '~/models/user.server';
import { consumeRateLimit, resetLoginLimit, retryAfterHeaders } from '~/platform/rate-limit.server';
import { LoginSchema, RegisterFields } from '~/schemas/auth';
import type { UserJSON } from '~/types/entities';

export { UsernameTakenError };

/**
 * Logging in and registering: what the /auth page and /api/login, /api/register share.
 *
 * The caller validates the fields with its schema and answers in its own way (a page with
 * its form, /api with JSON); in between, `logIn` and `register` count the attempt against
 * the abuse limits, check the credentials or create the (never admin) user through
 * remix-auth's form strategies, and start a fresh session. A refusal is thrown as one of the
 * classes below (or `UsernameTakenError`), which the caller tells apart with `instanceof`.
 */

export const INVALID_LOGIN = 'Invalid username or password';

/** Wrong username or password (the same answer whether or not the name exists). */
export class InvalidLoginError extends Error {
  constructor() {
    super(INVALID_LOGIN);
  }
}

/** Credentials that do not pass the schema (the callers validate first: a safety net). */
export class AccountInputError extends Error {}

/** The abuse limits refused the attempt; answer 429 with `Retry-After: retryAfterSeconds`. */
export class TooManyAttemptsError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }

  get headers(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfterSeconds) };
  }
}

export type AccountRefusal =
  TooManyAttemptsError | InvalidLoginError | UsernameTakenError | AccountInputError;

/** True for the refusals `logIn` and `register` throw (anything else is a failure). */
export function isAccountRefusal(error: unknown): error is AccountRefusal {
  return (
    error instanceof TooManyAttemptsError ||
    error instanceof InvalidLoginError ||
    error instanceof UsernameTakenError ||
    error instanceof AccountInputError
  );
}

export type Credentials = { username: string; password: string };
export type StartedSession = { user: UserJSON; headers: Headers };

const authenticator = new Authenticator<UserJSON>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = LoginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new InvalidLoginError();
    const user = await verifyLogin(parsed.data.username, parsed.data.password);
    if (!user) throw new InvalidLoginError();
    return user;
  }),
  'login',
);

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = RegisterFields.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      throw new AccountInputError(parsed.error.issues[0]?.message ?? 'Invalid input');
    // A taken name throws UsernameTakenError.
    return createUser({ username: parsed.data.username, password: parsed.data.password });
  }),
  'register',
);

async function limit(kind: 'login' | 'register', request: Request, username?: string) {
  const decision = await consumeRateLimit(kind, request, { username });
  if (!decision.ok) throw new TooManyAttemptsError(decision.message, decision.retryAfterSeconds);
}

/**
 * Log in: throws TooManyAttemptsError (per address; per address + username) or
 * InvalidLoginError. A success clears the per-username counter and starts a new session.
 */
export async function logIn(request: Request, credentials: Credentials): Promise<StartedSession> {
  await limit('login', request, credentials.username);
  const user = await authenticator.authenticate('login', credentialsRequest(request, credentials));
  await resetLoginLimit(request, credentials.username);
  return { user, headers: await createUserSession(request, user) };
}

/**
 * Register a plain user (never an admin) and start a session: throws TooManyAttemptsError,
 * UsernameTakenError or AccountInputError.
 */
export async function register(
  request: Request,
  credentials: Credentials,
): Promise<StartedSession> {
  await limit('register', request);
  const user = await authenticator.authenticate(
    'register',
    credentialsRequest(request, credentials),
  );
  return { user, headers: await createUserSession(request, user) };
}

/** What `confirmOwnPassword` found. */
export type PasswordConfirmation =
  | { result: 'confirmed' }
  | { result: 'incorrect' }
  | { result: 'too-many'; message: string; headers: Record<string, string> };

/**
 * The signed-in user's own password, typed again to confirm a change (a new password, deleting
 * the account). It counts against the login limits like a login attempt, so these forms cannot
 * be used to guess it; the right password clears the per-username counter, as a login does.
 */
export async function confirmOwnPassword(
  request: Request,
  username: string,
  password: string,
): Promise<PasswordConfirmation> {
  const decision = await consumeRateLimit('login', request, { username });
  if (!decision.ok) {
    return { result: 'too-many', message: decision.message, headers: retryAfterHeaders(decision) };
  }
  if (!(await verifyLogin(username, password))) return { result: 'incorrect' };
  await resetLoginLimit(request, username);
  return { result: 'confirmed' };
}

/** Administrators keep their account: the back office must never lose its last admin. */
export class AdminAccountError extends Error {
  constructor() {
    super('Administrator accounts cannot be deleted here. Ask another administrator.');
  }
}

/**
 * A new password for the account: every session of the member ends (the caller signs the
 * current one in again) and the private podcast feed is revoked, as a stolen password's
 * sessions would be: whoever had the old password may have taken the feed address too.
 * Returns whether a feed was revoked.
 */
export async function changeAccountPassword(user: UserJSON, password: string): Promise<boolean> {
  await setPassword(user.id, password);
  const revoked = await revokeFeedTokens(user.id);
  await deleteSessionsOfUser(user.id);
  return revoked;
}

/**
 * Delete a member's account and everything that hangs off it: guest-list spots (each given
 * back to its show), favourites, the private podcast feed, every session, then the user. Administrators are refused.
 * The account is marked first: a guest-list request from another session racing this one
 * then refuses, or takes back the spot it just wrote (decision 030), so no spot outlives it.
 */
export async function deleteAccount(user: UserJSON): Promise<void> {
  if (user.isAdmin) throw new AdminAccountError();
  await markUserDeleting(user.id);
  await removeGuestListSpotsOfUser(user.id);
  await removeFavouritesOfUser(user.id);
  await revokeFeedTokens(user.id);
  await deleteSessionsOfUser(user.id);
  await deleteUser(user.id);
}
