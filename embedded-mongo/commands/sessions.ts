// The logical sessions this store has seen, for `$listLocalSessions` and `endSessions`: like
// mongod's session cache, a session is recorded when a command carries its `lsid`, forgotten by
// endSessions or after `logicalSessionTimeoutMinutes` (30) without use.
import { createHash } from 'node:crypto';

import { Binary } from 'bson';

import { badValue } from '../errors';
import { type Doc, isPlainObject } from '../values';

const TIMEOUT_MS = 30 * 60_000;
/** Without authentication, a session's `uid` is the SHA-256 of the empty user name. */
const NO_USER_UID = new Binary(createHash('sha256').update('').digest(), 0);

function keyOfId(id: unknown): string | null {
  return id instanceof Binary ? Buffer.from(id.buffer).toString('hex') : null;
}

export class SessionCache {
  private sessions = new Map<string, { id: Binary; lastUse: Date }>();

  /** Notes the use of the session in a command's `lsid` (if any). */
  touch(lsid: unknown, now = new Date()): void {
    if (!isPlainObject(lsid)) return;
    const key = keyOfId(lsid.id);
    if (key) this.sessions.set(key, { id: lsid.id as Binary, lastUse: now });
  }

  /** endSessions: `[{ id: UUID }, ...]`. */
  end(list: unknown): void {
    if (!Array.isArray(list)) return;
    for (const lsid of list) {
      const key = isPlainObject(lsid) ? keyOfId(lsid.id) : null;
      if (key) this.sessions.delete(key);
    }
  }

  /** The documents `$listLocalSessions` produces for its spec (no users without auth). */
  list(spec: unknown, now = Date.now()): Doc[] {
    if (!isPlainObject(spec)) throw badValue('$listLocalSessions must be an object');
    const users = spec.users;
    if (users !== undefined && !Array.isArray(users)) {
      throw badValue("$listLocalSessions 'users' must be an array");
    }
    // Sessions of other users: there are none; listing specific users finds none.
    if (Array.isArray(users) && users.length > 0) return [];
    const out: Doc[] = [];
    for (const [key, s] of this.sessions) {
      if (now - s.lastUse.getTime() > TIMEOUT_MS) {
        this.sessions.delete(key);
        continue;
      }
      out.push({ _id: { id: s.id, uid: NO_USER_UID }, lastUse: s.lastUse });
    }
    return out;
  }
}
