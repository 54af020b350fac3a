import mongoose, { Schema } from 'mongoose';

import { defineModel } from './model-helpers.server';

/** Server-side sessions: the cookie holds only the signed id of one of these. */
type SessionDoc = {
  _id: string;
  data: Record<string, unknown>;
  userId: number | null;
  expiresAt: Date;
};

const SessionSchema = new Schema<SessionDoc>(
  {
    _id: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: {} },
    userId: { type: Number, default: null, index: true },
    expiresAt: { type: Date, required: true, index: true },
  },
  { versionKey: false, minimize: false },
);

export const SessionModel = defineModel<SessionDoc>('Session', SessionSchema, 'sessions');

/** End every session of a user (password change, account removal). */
export async function deleteSessionsOfUser(userId: number, exceptId?: string): Promise<void> {
  const filter: Record<string, unknown> = { userId };
  if (exceptId) filter._id = mongoose.trusted({ $ne: exceptId });
  await SessionModel.deleteMany(filter);
}

/** Remove expired sessions (runs opportunistically; the embedded store has no TTL monitor). */
export async function purgeExpiredSessions(now = new Date()): Promise<void> {
  await SessionModel.deleteMany({ expiresAt: mongoose.trusted({ $lt: now }) });
}
