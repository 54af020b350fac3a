// Fail points for tests: `configureFailPoint` with `failCommand`, as MongoDB defines it (a test
// command, only present when the store is started with test commands on). The wire server asks
// `FailPoints.decide` as each command arrives, before the command enters the store's queue, so a
// blocked command holds up only its own connection.
import { badValue, MongoError, unsupported } from '../errors';
import { type Doc, isPlainObject } from '../values';
import { type CmdContext, toNumber } from './context';

/** What the failCommand fail point does to one command. */
export interface FailAction {
  /** Wait this long before anything else (`blockConnection`). */
  blockMs: number;
  /** Close the connection without a reply (`closeConnection`). */
  close: boolean;
  /** Reply with this error instead of running the command (`errorCode`). */
  error: Doc | null;
  /** Run the command, then add this to its reply (`writeConcernError`). */
  writeConcernError: Doc | null;
  /** Labels added to the reply (error or write concern error). */
  errorLabels: string[] | null;
}

type Mode =
  | { kind: 'off' }
  | { kind: 'alwaysOn' }
  | { kind: 'times'; left: number }
  | { kind: 'skip'; left: number }
  | { kind: 'probability'; p: number };

/** Code names for the codes tests usually ask for; others get MongoDB's `Location<code>`. */
const CODE_NAMES: Record<number, string> = {
  1: 'InternalError',
  2: 'BadValue',
  6: 'HostUnreachable',
  7: 'HostNotFound',
  8: 'UnknownError',
  11: 'UserNotFound',
  13: 'Unauthorized',
  18: 'AuthenticationFailed',
  24: 'LockTimeout',
  26: 'NamespaceNotFound',
  43: 'CursorNotFound',
  50: 'MaxTimeMSExpired',
  59: 'CommandNotFound',
  64: 'WriteConcernFailed',
  89: 'NetworkTimeout',
  91: 'ShutdownInProgress',
  96: 'OperationFailed',
  100: 'UnsatisfiableWriteConcern',
  112: 'WriteConflict',
  134: 'ReadConcernMajorityNotAvailableYet',
  175: 'QueryPlanKilled',
  189: 'PrimarySteppedDown',
  237: 'CursorKilled',
  251: 'NoSuchTransaction',
  262: 'ExceededTimeLimit',
  9001: 'SocketException',
  10107: 'NotWritablePrimary',
  11000: 'DuplicateKey',
  11600: 'InterruptedAtShutdown',
  11602: 'InterruptedDueToReplStateChange',
  13435: 'NotPrimaryNoSecondaryOk',
  13436: 'NotPrimaryOrSecondary',
};

export function codeName(code: number): string {
  return CODE_NAMES[code] ?? `Location${code}`;
}

function parseMode(mode: unknown): Mode {
  if (mode === 'off') return { kind: 'off' };
  if (mode === 'alwaysOn') return { kind: 'alwaysOn' };
  if (isPlainObject(mode) && Object.keys(mode).length === 1) {
    if ('times' in mode) {
      const n = toNumber(mode.times);
      if (!Number.isInteger(n) || n < 0) throw badValue("'times' must be a non-negative integer");
      return n === 0 ? { kind: 'off' } : { kind: 'times', left: n };
    }
    if ('skip' in mode) {
      const n = toNumber(mode.skip);
      if (!Number.isInteger(n) || n < 0) throw badValue("'skip' must be a non-negative integer");
      return { kind: 'skip', left: n };
    }
    if ('activationProbability' in mode) {
      const p = toNumber(mode.activationProbability);
      if (!(p >= 0 && p <= 1)) throw badValue("'activationProbability' must be between 0 and 1");
      return { kind: 'probability', p };
    }
  }
  throw badValue(
    "'mode' must be 'alwaysOn', 'off', or an object with one of 'times', 'skip' or 'activationProbability'",
  );
}

function checkData(data: Doc): void {
  const commands = data.failCommands;
  if (
    commands !== undefined &&
    (!Array.isArray(commands) || !commands.every((c) => typeof c === 'string'))
  )
    throw badValue("'failCommands' must be an array of command names");
  if (data.errorCode !== undefined) {
    const code = toNumber(data.errorCode);
    if (!Number.isInteger(code)) throw badValue("'errorCode' must be an integer");
  }
  if (data.blockConnection === true) {
    if (data.blockTimeMS === undefined)
      throw badValue("'blockTimeMS' must be given when 'blockConnection' is true");
    const ms = toNumber(data.blockTimeMS);
    if (!Number.isInteger(ms) || ms < 0)
      throw badValue("'blockTimeMS' must be a non-negative integer");
  }
  if (data.writeConcernError !== undefined && !isPlainObject(data.writeConcernError))
    throw badValue("'writeConcernError' must be an object");
  const labels = data.errorLabels;
  if (
    labels !== undefined &&
    (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string'))
  )
    throw badValue("'errorLabels' must be an array of strings");
  if (data.appName !== undefined && typeof data.appName !== 'string')
    throw badValue("'appName' must be a string");
  if (data.namespace !== undefined && typeof data.namespace !== 'string')
    throw badValue("'namespace' must be a string");
}

/** The fail points of one store (only failCommand exists here). */
export class FailPoints {
  private mode: Mode = { kind: 'off' };
  private data: Doc = {};
  /** How many times failCommand has fired since the store started. */
  private timesEntered = 0;
  /** waitForFailPoint calls waiting for a number of times entered. */
  private waiters: { target: number; resolve: () => void }[] = [];

  constructor(
    /** Whether test commands (configureFailPoint) are enabled for this store. */
    readonly enabled: boolean,
  ) {}

  get active(): boolean {
    return this.mode.kind !== 'off';
  }

  configure(name: string, mode: unknown, data: unknown): Doc {
    if (name !== 'failCommand') {
      throw unsupported(`The fail point '${name}' (only 'failCommand' is implemented)`);
    }
    const next = parseMode(mode);
    const nextData = data === undefined ? {} : data;
    if (!isPlainObject(nextData)) throw badValue("'data' must be an object");
    checkData(nextData);
    const count = this.timesEntered;
    this.mode = next;
    this.data = nextData;
    return { count, ok: 1 };
  }

  /** Resolves once failCommand has fired `target` times in all; rejects with 50 after `ms`. */
  waitFor(target: number, ms: number): Promise<void> {
    if (this.timesEntered >= target) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = {
        target,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new MongoError(50, 'MaxTimeMSExpired', 'operation exceeded time limit'));
      }, ms);
      timer.unref();
      this.waiters.push(waiter);
    });
  }

  /**
   * Whether failCommand fires for a command arriving now (counting it against `times`/`skip`),
   * and what it does; null when it does not apply.
   */
  decide(command: Doc, db: string, appName: string | undefined): FailAction | null {
    if (this.mode.kind === 'off') return null;
    const name = Object.keys(command)[0] ?? '';
    const d = this.data;
    const commands = d.failCommands;
    // mongod matches its canonical command name: an alias in another case (ismaster) is the same.
    const lname = name.toLowerCase();
    if (!Array.isArray(commands) || !commands.some((c) => String(c).toLowerCase() === lname)) {
      return null;
    }
    if (typeof d.appName === 'string' && d.appName !== appName) return null;
    if (typeof d.namespace === 'string') {
      const target = command[name];
      if (typeof target !== 'string' || `${db}.${target}` !== d.namespace) return null;
    }
    switch (this.mode.kind) {
      case 'times':
        if (--this.mode.left === 0) this.mode = { kind: 'off' };
        break;
      case 'skip':
        if (this.mode.left > 0) {
          this.mode.left--;
          return null;
        }
        break;
      case 'probability':
        if (Math.random() >= this.mode.p) return null;
        break;
      default:
        break;
    }
    this.timesEntered++;
    this.waiters = this.waiters.filter((w) => {
      if (w.target > this.timesEntered) return true;
      w.resolve();
      return false;
    });
    const labels = Array.isArray(d.errorLabels) ? (d.errorLabels as string[]) : null;
    let error: Doc | null = null;
    if (d.errorCode !== undefined) {
      const code = toNumber(d.errorCode);
      error = {
        ok: 0,
        errmsg: "Failing command via 'failCommand' failpoint",
        code,
        codeName: codeName(code),
      };
      if (labels) error.errorLabels = labels;
    }
    return {
      blockMs: d.blockConnection === true ? toNumber(d.blockTimeMS) : 0,
      close: d.closeConnection === true,
      error,
      writeConcernError: isPlainObject(d.writeConcernError) ? d.writeConcernError : null,
      errorLabels: labels,
    };
  }
}

/**
 * The admin command `waitForFailPoint` (a MongoDB test command): answers once the fail point has
 * been entered `timesEntered` times in all (the count configureFailPoint returns, plus the
 * number of commands to wait for), or fails with MaxTimeMSExpired (50) after `maxTimeMS`.
 * It waits outside the store's queue (the wire server runs it on arrival).
 */
export async function waitForFailPoint(cmd: Doc, db: string, failPoints: FailPoints): Promise<Doc> {
  checkTestCommand(failPoints, 'waitForFailPoint', db);
  const name = cmd.waitForFailPoint;
  if (name !== 'failCommand') {
    throw unsupported(`The fail point '${String(name)}' (only 'failCommand' is implemented)`);
  }
  const target = toNumber(cmd.timesEntered, NaN);
  if (!Number.isInteger(target)) throw badValue("'timesEntered' must be an integer");
  if (cmd.maxTimeMS === undefined) throw badValue("'maxTimeMS' must be given");
  const maxTimeMS = toNumber(cmd.maxTimeMS);
  await failPoints.waitFor(target, maxTimeMS);
  return { ok: 1 };
}

function checkTestCommand(failPoints: FailPoints, command: string, db: string): void {
  if (!failPoints.enabled) {
    throw new MongoError(
      59,
      'CommandNotFound',
      `no such command: '${command}' (test commands are off for this store: start it ` +
        'with `testCommands: true`, `--test-commands` or EMBEDDED_MONGO_TEST_COMMANDS=1)',
    );
  }
  if (db !== 'admin') {
    throw new MongoError(
      13,
      'Unauthorized',
      `${command} may only be run against the admin database.`,
    );
  }
}

/** The admin command `configureFailPoint` (a MongoDB test command). */
export function configureFailPoint(cmd: Doc, ctx: CmdContext): Doc {
  const failPoints = ctx.state.failPoints;
  checkTestCommand(failPoints, 'configureFailPoint', ctx.db);
  const name = cmd.configureFailPoint;
  if (typeof name !== 'string') throw badValue("'configureFailPoint' must name a fail point");
  return failPoints.configure(name, cmd.mode, cmd.data);
}

/** Adds a fired writeConcernError (and its labels) to a command's successful reply. */
export function withWriteConcernError(reply: Doc, action: FailAction): Doc {
  if (!action.writeConcernError || reply.ok !== 1) return reply;
  const out: Doc = { ...reply, writeConcernError: action.writeConcernError };
  if (action.errorLabels) out.errorLabels = action.errorLabels;
  return out;
}
