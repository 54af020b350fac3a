import mongoose from 'mongoose';

const { mongo } = mongoose;

/**
 * Server error codes meaning "the database cannot answer now" rather than "the query is
 * wrong": the codes the driver retries a read on (a node shutting down, stepping down, not
 * reachable) and the time limits.
 */
const UNAVAILABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

/**
 * True when an error says the database is down, unreachable or too slow (decision 033): a
 * network error or a dropped connection, no server to select, a closed client, a time limit,
 * a command mongoose held while disconnected until it gave up. A query the database refuses
 * for what it asks (a bad filter, a duplicate key) is a bug, not an outage: false.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (
    error instanceof mongo.MongoNetworkError ||
    error instanceof mongo.MongoServerSelectionError ||
    error instanceof mongo.MongoTopologyClosedError ||
    error instanceof mongo.MongoNotConnectedError ||
    error instanceof mongo.MongoOperationTimeoutError ||
    error instanceof mongoose.Error.MongooseServerSelectionError
  ) {
    return true;
  }
  if (error instanceof mongo.MongoServerError) {
    return typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code);
  }
  // mongoose keeps commands while it is disconnected and fails them after bufferTimeoutMS.
  return error instanceof mongoose.Error && /buffering timed out/.test(error.message);
}
