import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { Schema } from 'mongoose';
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
  /** Optional, set on /account: the newsletter toggle and guest-list emails use it. */
  email?: string;
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

/** The account's email address (decision 020), or null when the member has not given one. */
export async function getUserEmail(userId: number): Promise<string | null> {
  const user = await User.findOne({ id: userId }, { email: 1, _id: 0 }).lean();
  return user?.email || null;
}

/** Set (or, with null, remove) the account's email address. */
export async function setUserEmail(userId: number, email: string | null): Promise<void> {
  await User.updateOne(
    { id: userId },
    email ? { $set: { email: email.trim() } } : { $unset: { email: 1 } },
  );
}
