import crypto from 'node:crypto';
import { promisify } from 'node:util';

import mongoose, { Schema } from 'mongoose';

import type { UserJSON } from '~/types/entities';

import { serialIdPlugin } from './counter.server';
import {
  cachedCount,
  cachedFindOne,
  defineModel,
  isDuplicateKeyError,
} from './model-helpers.server';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

type UserDoc = {
  id: number;
  username: string;
  usernameLower: string;
  passwordHash: string;
  isAdmin: boolean;
  /**
   * The account's confirmed email address (decision 030): the only one the site writes to
   * (guest-list confirmations) or acts on (the newsletter toggle). Set only by following the
   * verification link sent to it.
   */
  email?: string;
  /** When `email` was confirmed; an address without it is not used (decision 030). */
  emailConfirmedAt?: Date;
  /** An address given on /account and not confirmed yet: it only gets the verification link. */
  pendingEmail?: string;
  /** sha256 (hex) of the live verification link's token for `pendingEmail`; none: no live link. */
  pendingEmailTokenHash?: string;
  /** When that link stops working (24 hours after it was sent). */
  pendingEmailExpiresAt?: Date;
  /** sha256 of the last link used to confirm an address (so a reused link says "already used"). */
  usedEmailTokenHash?: string;
  /** Set when the account's deletion starts: a marked account gets no new guest-list spot. */
  deletingAt?: Date;
  createdAt: Date;
  updatedAt: Date;
};

const UserSchema = new Schema<UserDoc>(
  {
    username: { type: String, required: true, trim: true },
    // Usernames are unique case-insensitively: "Nova" and "nova" are the same account.
    usernameLower: { type: String, required: true, unique: true },
    passwordHash: { type: String, required: true },
    isAdmin: { type: Boolean, default: false },
    email: { type: String, trim: true },
    emailConfirmedAt: { type: Date },
    pendingEmail: { type: String, trim: true },
    pendingEmailTokenHash: { type: String, index: true },
    pendingEmailExpiresAt: { type: Date },
    usedEmailTokenHash: { type: String, index: true },
    deletingAt: { type: Date },
  },
  { timestamps: true },
);
UserSchema.plugin(serialIdPlugin, { counter: 'users' });

export const User = defineModel<UserDoc>('User', UserSchema, 'users');

// scrypt, N=2^15: about 100 ms per hash on our machines; salted per password.
const SCRYPT = { N: 32768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEYLEN = 64;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password.normalize('NFKC'), salt, KEYLEN, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scrypt(
    password.normalize('NFKC'),
    Buffer.from(saltB64, 'base64'),
    expected.length,
    {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: SCRYPT.maxmem,
    },
  );
  return crypto.timingSafeEqual(actual, expected);
}

// A hash to compare against when the username does not exist, so a failed login
// takes the same time either way.
let dummyHash: Promise<string> | null = null;

export function toUserJSON(u: Pick<UserDoc, 'id' | 'username' | 'isAdmin'>): UserJSON {
  return { id: u.id, username: u.username, isAdmin: Boolean(u.isAdmin) };
}

export class UsernameTakenError extends Error {
  constructor() {
    super('Username already exists');
  }
}

/** Create a user. Registration never passes isAdmin; only create-admin does. */
export async function createUser(input: {
  username: string;
  password: string;
  isAdmin?: boolean;
}): Promise<UserJSON> {
  const username = input.username.trim();
  try {
    const user = await User.create({
      username,
      usernameLower: username.toLowerCase(),
      passwordHash: await hashPassword(input.password),
      isAdmin: input.isAdmin === true,
    });
    return toUserJSON(user);
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new UsernameTakenError();
    throw error;
  }
}

/** The user for these credentials, or null (same answer whether or not the name exists). */
export async function verifyLogin(username: string, password: string): Promise<UserJSON | null> {
  if (typeof username !== 'string' || typeof password !== 'string') return null;
  const user = await User.findOne({ usernameLower: username.trim().toLowerCase() }).lean();
  if (!user) {
    dummyHash ??= hashPassword('not-a-real-password');
    await verifyPassword(password, await dummyHash);
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? toUserJSON(user) : null;
}

export async function getUserById(id: number): Promise<UserJSON | null> {
  // Cached without the password hash: only what the answer holds.
  const user = await cachedFindOne(User, {
    filter: { id },
    fields: ['id', 'username', 'isAdmin'],
  });
  return user ? toUserJSON(user) : null;
}

/** create-admin: create the user as an admin, or promote and re-password an existing one. */
export async function upsertAdmin(
  username: string,
  password: string,
): Promise<{ user: UserJSON; created: boolean }> {
  const existing = await User.findOne({ usernameLower: username.trim().toLowerCase() });
  if (existing) {
    existing.isAdmin = true;
    existing.passwordHash = await hashPassword(password);
    await existing.save();
    return { user: toUserJSON(existing), created: false };
  }
  try {
    return { user: await createUser({ username, password, isAdmin: true }), created: true };
  } catch (error) {
    // Two create-admin runs at once (e.g. parallel test workers): the other one created
    // the user between our lookup and our insert, so promote that one instead.
    if (error instanceof UsernameTakenError) return upsertAdmin(username, password);
    throw error;
  }
}

export async function setPassword(userId: number, password: string): Promise<void> {
  await User.updateOne({ id: userId }, { $set: { passwordHash: await hashPassword(password) } });
}

export const countUsers = () => cachedCount(User);

/** Remove the account record (the accounts service removes what hangs off it first). */
export async function deleteUser(userId: number): Promise<boolean> {
  return (await User.deleteOne({ id: userId })).deletedCount === 1;
}

/**
 * The account's confirmed email address (decisions 020 and 030), or null when the member has
 * none. An unconfirmed address is never returned: nothing but its verification link goes to it.
 */
export async function getUserEmail(userId: number): Promise<string | null> {
  const user = await User.findOne({ id: userId }, { email: 1, emailConfirmedAt: 1, _id: 0 }).lean();
  return user?.email && user.emailConfirmedAt ? user.email : null;
}

export type UserEmailState = {
  /** The confirmed address, in use (null: none). */
  email: string | null;
  /** An address waiting for its verification link (null: none). */
  pendingEmail: string | null;
  /** Whether a link for `pendingEmail` is still live (sent, not used, not expired). */
  linkLive: boolean;
};

export async function getUserEmailState(
  userId: number,
  now: Date = new Date(),
): Promise<UserEmailState> {
  const user = await User.findOne(
    { id: userId },
    {
      email: 1,
      emailConfirmedAt: 1,
      pendingEmail: 1,
      pendingEmailTokenHash: 1,
      pendingEmailExpiresAt: 1,
      _id: 0,
    },
  ).lean();
  return {
    email: user?.email && user.emailConfirmedAt ? user.email : null,
    pendingEmail: user?.pendingEmail || null,
    linkLive: Boolean(
      user?.pendingEmailTokenHash &&
      user.pendingEmailExpiresAt &&
      user.pendingEmailExpiresAt.getTime() > now.getTime(),
    ),
  };
}

/** Remove the confirmed address and any pending one (the member emptied the field). */
export async function clearUserEmails(userId: number): Promise<void> {
  await User.updateOne(
    { id: userId },
    {
      $unset: {
        email: 1,
        emailConfirmedAt: 1,
        pendingEmail: 1,
        pendingEmailTokenHash: 1,
        pendingEmailExpiresAt: 1,
      },
    },
  );
}

/** Drop a pending change (the member went back to the confirmed address). */
export async function clearPendingEmail(userId: number): Promise<void> {
  await User.updateOne(
    { id: userId },
    { $unset: { pendingEmail: 1, pendingEmailTokenHash: 1, pendingEmailExpiresAt: 1 } },
  );
}

/**
 * Record an address waiting for confirmation with the hash of its new link; a link sent
 * before for this account stops working (only the latest hash is kept).
 */
export async function setPendingEmail(
  userId: number,
  pending: { email: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await User.updateOne(
    { id: userId },
    {
      $set: {
        pendingEmail: pending.email.trim(),
        pendingEmailTokenHash: pending.tokenHash,
        pendingEmailExpiresAt: pending.expiresAt,
      },
    },
  );
}

export type PendingEmailLookup =
  | { state: 'live'; userId: number; email: string }
  | { state: 'expired'; userId: number }
  | { state: 'used'; userId: number }
  | { state: 'unknown' };

/** The account a verification link (by its token's hash) belongs to, and the link's state. */
export async function findPendingEmailByTokenHash(
  tokenHash: string,
  now: Date = new Date(),
): Promise<PendingEmailLookup> {
  const user = await User.findOne(
    { pendingEmailTokenHash: tokenHash },
    { id: 1, pendingEmail: 1, pendingEmailExpiresAt: 1, _id: 0 },
  ).lean();
  if (user?.pendingEmail) {
    if (!user.pendingEmailExpiresAt || user.pendingEmailExpiresAt.getTime() <= now.getTime()) {
      return { state: 'expired', userId: user.id };
    }
    return { state: 'live', userId: user.id, email: user.pendingEmail };
  }
  const used = await User.findOne({ usedEmailTokenHash: tokenHash }, { id: 1, _id: 0 }).lean();
  return used ? { state: 'used', userId: used.id } : { state: 'unknown' };
}

/**
 * Confirm the pending address of the link with this hash: it becomes the account's address.
 * One conditional update, so a link works once (two clicks at once: one confirms, the other
 * finds it used) and a link replaced by a newer one, or expired, confirms nothing.
 * Returns the confirmed address and the one it replaces, or null.
 */
export async function confirmPendingEmail(
  tokenHash: string,
  now: Date = new Date(),
): Promise<{ userId: number; email: string; previous: string | null } | null> {
  const pending = await User.findOne(
    { pendingEmailTokenHash: tokenHash },
    { id: 1, pendingEmail: 1, _id: 0 },
  ).lean();
  if (!pending?.pendingEmail) return null;
  const before = await User.findOneAndUpdate(
    {
      id: pending.id,
      pendingEmail: pending.pendingEmail,
      pendingEmailTokenHash: tokenHash,
      pendingEmailExpiresAt: mongoose.trusted({ $gt: now }),
    },
    {
      $set: {
        email: pending.pendingEmail,
        emailConfirmedAt: now,
        usedEmailTokenHash: tokenHash,
      },
      $unset: { pendingEmail: 1, pendingEmailTokenHash: 1, pendingEmailExpiresAt: 1 },
    },
    { returnDocument: 'before', projection: { email: 1, emailConfirmedAt: 1 } },
  ).lean();
  if (!before) return null;
  return {
    userId: pending.id,
    email: pending.pendingEmail,
    previous: before.email && before.emailConfirmedAt ? before.email : null,
  };
}

/** Make an address stored before verification existed (decision 030) a pending one. */
export async function migrateUnconfirmedEmails(): Promise<number> {
  const legacy = await User.find(
    {
      email: mongoose.trusted({ $exists: true }),
      emailConfirmedAt: mongoose.trusted({ $exists: false }),
    },
    { id: 1, email: 1, pendingEmail: 1, _id: 0 },
  ).lean();
  let moved = 0;
  for (const user of legacy) {
    if (!user.email) continue;
    const result = await User.updateOne(
      { id: user.id, email: user.email, emailConfirmedAt: mongoose.trusted({ $exists: false }) },
      // An address typed since (pending) wins over the legacy one.
      user.pendingEmail
        ? { $unset: { email: 1 } }
        : { $set: { pendingEmail: user.email }, $unset: { email: 1 } },
    );
    moved += result.modifiedCount;
  }
  return moved;
}

/**
 * The first step of deleting an account: mark it, so that a guest-list request racing the
 * deletion (another session) refuses or takes its own spot back (decision 030).
 */
export async function markUserDeleting(userId: number, now: Date = new Date()): Promise<void> {
  await User.updateOne({ id: userId }, { $set: { deletingAt: now } });
}

/** True while the account exists and its deletion has not started (read from the database). */
export async function isActiveUser(userId: number): Promise<boolean> {
  return Boolean(await User.exists({ id: userId, deletingAt: null }));
}
