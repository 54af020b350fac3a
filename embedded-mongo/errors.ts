// The store's errors: a MongoError carries MongoDB's code, codeName and message (and any extra
// fields of the reply, e.g. a duplicate key's keyPattern/keyValue); the wire server turns it into
// a command error or a write error. The helpers build the common ones.
import type { Doc } from './values';

export class MongoError extends Error {
  constructor(
    public code: number,
    public codeName: string,
    message: string,
    public extra: Doc = {},
  ) {
    super(message);
  }
}

export const UNSUPPORTED_HINT =
  'is not supported by the embedded store; use a real MongoDB server through MONGODB_URI';

export function unsupported(feature: string): MongoError {
  return new MongoError(115, 'CommandNotSupported', `${feature} ${UNSUPPORTED_HINT}`);
}

export function badValue(msg: string): MongoError {
  return new MongoError(2, 'BadValue', msg);
}

export function failedToParse(msg: string): MongoError {
  return new MongoError(9, 'FailedToParse', msg);
}
