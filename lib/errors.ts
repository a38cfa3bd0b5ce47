/**
 * One error tree (the kafkajs model, docs/adr/0090-one-error-tree.md): every failure answers three
 * questions the same way wherever it is met — what it is (`code`), whether the same work done again
 * later can succeed (`retriable`: the API answers 503 + Retry-After, a worker retries), and whether
 * the work is a message that can never be applied (`deadLetter`: a sink sets it aside). Our own
 * errors carry the answers (`ServiceError`); foreign ones (Postgres, kafkajs, the network, mail) get them
 * from `classify`, the only code that reads their codes and messages.
 */

/** The three answers. */
export interface Classification {
  /** Stable and machine-readable: our own code, a SQLSTATE, a kafkajs error type, an errno. */
  code: string;
  /** The same work, done again later, can succeed: the failure is about the moment, not the work. */
  retriable: boolean;
  /** The work is one message that no retry could apply: set it aside, go on with the others. */
  deadLetter: boolean;
  /** Who raised it: the dead letter of a statement Postgres refused says so. */
  origin: 'service' | 'postgres' | 'kafka' | 'network' | 'mail' | 'runtime';
}

export interface ServiceErrorOptions {
  retriable?: boolean;
  deadLetter?: boolean;
  cause?: unknown;
}

/** The base of the service's own errors: the answers travel with the error. */
export class ServiceError extends Error {
  readonly code: string;
  readonly retriable: boolean;
  readonly deadLetter: boolean;

  constructor(code: string, message: string, options: ServiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.retriable = options.retriable ?? false;
    this.deadLetter = options.deadLetter ?? false;
  }
}

/**
 * SQLSTATEs of a Postgres that is slow, busy or away, not of a wrong statement: a statement
 * timeout, a server shutting down or refusing connections, the idle-in-transaction timeout.
 * Class 08 (connection exception) and class 40 (a transaction rolled back for a serialization
 * failure or a deadlock, which Postgres's documentation says to retry) count whole.
 */
const PG_RETRIABLE = new Set(['57014', '57P01', '57P02', '57P03', '53300', '25P03']);
const PG_RETRIABLE_CLASSES = new Set(['08', '40']);

/**
 * SQLSTATE classes of data that can never be stored: 22 (data exception: encoding, range …) and
 * 54 (program limit exceeded, e.g. an index key too large). Retrying the same message cannot help.
 */
const PG_DEAD_LETTER_CLASSES = new Set(['22', '54']);

/** A SQLSTATE: two characters of class (digits, or F0, HV, P0, XX), three of condition. */
const SQLSTATE = /^([0-9]{2}|F0|HV|P0|XX)[0-9A-Z]{3}$/;

/** Node's errno codes of a connection refused, cut or silent: the peer may answer later. */
const NETWORK_RETRIABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/** nodemailer's codes of a mail server that could not be reached or stopped answering. */
const MAIL_RETRIABLE = new Set(['ECONNECTION', 'ESOCKET', 'EDNS']);

/** pg's error when the server did not answer within query_timeout: the connection is in an unknown state. */
export const PG_READ_TIMEOUT = 'Query read timeout';

/**
 * pg-pool's and pg's errors that have no code, only a message: no free connection in time, a
 * connection lost (also by the server's own timeouts: the error then reaches the client's socket,
 * not the next query).
 */
const PG_UNAVAILABLE_MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  PG_READ_TIMEOUT,
  'Connection terminated due to connection timeout',
  'Connection terminated unexpectedly',
  'Client has encountered a connection error and is not queryable',
]);

/** JavaScript's own errors of a bug (kafkajs' "unrecoverable" ones): the same code fails the same way. */
const PROGRAMMING_ERRORS = new Set(['RangeError', 'ReferenceError', 'SyntaxError', 'TypeError']);

export const isProgrammingError = (err: unknown): boolean =>
  PROGRAMMING_ERRORS.has(String((err as { name?: unknown } | null)?.name));

/** The three answers for anything thrown: our errors say them, foreign ones are read here. */
export function classify(err: unknown): Classification {
  if (err instanceof ServiceError) {
    return { code: err.code, retriable: err.retriable, deadLetter: err.deadLetter, origin: 'service' };
  }
  const { name, code, message, retriable, type, responseCode, permanent } = (err ?? {}) as Record<string, unknown>;
  // kafkajs says itself which of its errors are worth retrying; a broker's error has a type.
  if (typeof name === 'string' && name.startsWith('KafkaJS')) {
    return {
      code: typeof type === 'string' ? type : name,
      retriable: retriable === true,
      deadLetter: false,
      origin: 'kafka',
    };
  }
  // nodemailer: a mail server's refusal carries its reply code and whether RFC 5321 makes it permanent (5yz).
  if (typeof responseCode === 'number') {
    return { code: `smtp_${responseCode}`, retriable: permanent !== true, deadLetter: false, origin: 'mail' };
  }
  if (typeof code === 'string' && NETWORK_RETRIABLE.has(code)) {
    return { code, retriable: true, deadLetter: false, origin: 'network' };
  }
  if (typeof code === 'string' && MAIL_RETRIABLE.has(code)) {
    return { code, retriable: true, deadLetter: false, origin: 'mail' };
  }
  if (typeof code === 'string' && SQLSTATE.test(code)) {
    const cls = code.slice(0, 2);
    return {
      code,
      retriable: PG_RETRIABLE.has(code) || PG_RETRIABLE_CLASSES.has(cls),
      deadLetter: PG_DEAD_LETTER_CLASSES.has(cls),
      origin: 'postgres',
    };
  }
  if (typeof message === 'string' && PG_UNAVAILABLE_MESSAGES.has(message)) {
    return { code: 'postgres_unavailable', retriable: true, deadLetter: false, origin: 'postgres' };
  }
  if (isProgrammingError(err)) return { code: String(name), retriable: false, deadLetter: false, origin: 'runtime' };
  return { code: 'internal', retriable: false, deadLetter: false, origin: 'runtime' };
}
