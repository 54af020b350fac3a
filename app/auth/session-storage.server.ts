import crypto from 'node:crypto';

import { createCookie, createSessionStorage } from '@remix-run/node';

import { purgeExpiredSessions, SessionModel } from '~/models/session.server';
import { env } from '~/platform/env.server';

export const SESSION_MAX_AGE = 60 * 60 * 24 * 30; // 30 days, sliding
const isProduction = env.NODE_ENV === 'production';

/**
 * Sessions live in the database; the cookie carries a signed random id.
 * httpOnly, SameSite=Lax, Secure in production, signed with a rotatable list of secrets.
 */
export const sessionCookie = createCookie('__session', {
  httpOnly: true,
  sameSite: 'lax',
  path: '/',
  secure: isProduction && !process.env.INSECURE_COOKIES,
  secrets: env.SESSION_SECRETS,
  maxAge: SESSION_MAX_AGE,
});

let lastPurge = 0;

export const sessionStorage = createSessionStorage({
  cookie: sessionCookie,
  async createData(data, expires) {
    const id = crypto.randomBytes(24).toString('base64url');
    await SessionModel.create({
      _id: id,
      data,
      userId: typeof data.userId === 'number' ? data.userId : null,
      expiresAt: expires ?? new Date(Date.now() + SESSION_MAX_AGE * 1000),
    });
    return id;
  },
  async readData(id) {
    if (typeof id !== 'string' || id.length > 100) return null;
    const doc = await SessionModel.findById(id).lean();
    if (!doc) return null;
    if (doc.expiresAt.getTime() < Date.now()) {
      await SessionModel.deleteOne({ _id: id });
      return null;
    }
    return doc.data;
  },
  async updateData(id, data, expires) {
    await SessionModel.updateOne(
      { _id: id },
      {
        $set: {
          data,
          userId: typeof data.userId === 'number' ? data.userId : null,
          expiresAt: expires ?? new Date(Date.now() + SESSION_MAX_AGE * 1000),
        },
      },
    );
    if (Date.now() - lastPurge > 60 * 60 * 1000) {
      lastPurge = Date.now();
      purgeExpiredSessions().catch(() => undefined);
    }
  },
  async deleteData(id) {
    await SessionModel.deleteOne({ _id: id });
  },
});

export const getSession = (request: Request) =>
  sessionStorage.getSession(request.headers.get('Cookie'));
export const { commitSession, destroySession } = sessionStorage;
