import assert from 'node:assert/strict';
import { KafkaJSConnectionError, KafkaJSNonRetriableError, KafkaJSProtocolError } from '../../lib/kafka/client.js';
import { ApiError } from '../../api/errors.js';
import { type Classification, ServiceError, classify } from '../../lib/errors.js';
import { UnopenableMessage } from '../../store/user-keys.js';

/** An error as node-postgres builds it from the server's answer: the SQLSTATE in `code`. */
const pgError = (code: string, message = `sqlstate ${code}`) => Object.assign(new Error(message), { code });

const answers = ({ code, retriable, deadLetter, origin }: Classification) => ({ code, retriable, deadLetter, origin });

describe('classify: one set of answers for every error', () => {
  const table: [string, unknown, Classification][] = [
    // Postgres, by SQLSTATE class
    ['invalid byte sequence (22021)', pgError('22021'), dl('22021')],
    ['U+0000 in jsonb (22P05)', pgError('22P05'), dl('22P05')],
    ['index row too large (54000)', pgError('54000'), dl('54000')],
    ['statement timeout (57014)', pgError('57014'), again('57014', 'postgres')],
    ['admin shutdown (57P01)', pgError('57P01'), again('57P01', 'postgres')],
    ['too many connections (53300)', pgError('53300'), again('53300', 'postgres')],
    ['idle in transaction timeout (25P03)', pgError('25P03'), again('25P03', 'postgres')],
    ['connection failure (08006)', pgError('08006'), again('08006', 'postgres')],
    ['deadlock (40P01)', pgError('40P01'), again('40P01', 'postgres')],
    ['serialization failure (40001)', pgError('40001'), again('40001', 'postgres')],
    ['unique violation (23505)', pgError('23505'), neither('23505', 'postgres')],
    ['undefined table (42P01)', pgError('42P01'), neither('42P01', 'postgres')],
    // pg and pg-pool without a code
    ['no free pooled connection', new Error('timeout exceeded when trying to connect'), unavailable()],
    ['no answer within query_timeout', new Error('Query read timeout'), unavailable()],
    ['connection lost', new Error('Connection terminated unexpectedly'), unavailable()],
    // the network
    [
      'connection refused',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      net('ECONNREFUSED'),
    ],
    ['broken pipe (not a SQLSTATE)', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }), net('EPIPE')],
    // nodemailer: the mail server's reply, or no server
    [
      'a refused recipient (550)',
      Object.assign(new Error('550 no such user'), { code: 'EENVELOPE', responseCode: 550, permanent: true }),
      mailFinal(550),
    ],
    [
      'a mailbox busy (451)',
      Object.assign(new Error('451 try later'), { code: 'EENVELOPE', responseCode: 451, permanent: false }),
      { code: 'smtp_451', retriable: true, deadLetter: false, origin: 'mail' },
    ],
    [
      'no mail server',
      Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' }),
      { code: 'ECONNECTION', retriable: true, deadLetter: false, origin: 'mail' },
    ],
    // kafkajs says itself
    [
      'a rebalance (retriable protocol error)',
      new KafkaJSProtocolError(
        Object.assign(new Error('rebalancing'), { type: 'REBALANCE_IN_PROGRESS', code: 27, retriable: true }),
      ),
      { code: 'REBALANCE_IN_PROGRESS', retriable: true, deadLetter: false, origin: 'kafka' },
    ],
    [
      'a fenced producer',
      new KafkaJSNonRetriableError('old epoch'),
      { code: 'KafkaJSNonRetriableError', retriable: false, deadLetter: false, origin: 'kafka' },
    ],
    [
      'a lost broker connection',
      new KafkaJSConnectionError('Connection error'),
      { code: 'KafkaJSConnectionError', retriable: true, deadLetter: false, origin: 'kafka' },
    ],
    // bugs and the unknown
    [
      'a TypeError',
      new TypeError('x is undefined'),
      { code: 'TypeError', retriable: false, deadLetter: false, origin: 'runtime' },
    ],
    ['a plain Error', new Error('boom'), internal()],
    ['a thrown string', 'boom', internal()],
    ['undefined', undefined, internal()],
    // ours
    [
      'a ServiceError',
      new ServiceError('queue_full', 'later', { retriable: true }),
      { code: 'queue_full', retriable: true, deadLetter: false, origin: 'service' },
    ],
    [
      'an unopenable message',
      new UnopenableMessage('sealed value does not open: bad tag'),
      { code: 'unopenable_message', retriable: false, deadLetter: true, origin: 'service' },
    ],
    ['an ApiError 503', new ApiError(503, 'service_unavailable', 'later'), ours('service_unavailable', true)],
    ['an ApiError 429', new ApiError(429, 'rate_limited', 'slow down'), ours('rate_limited', true)],
    ['an ApiError 400', new ApiError(400, 'invalid_request', 'no'), ours('invalid_request', false)],
  ];
  for (const [what, err, expected] of table) {
    it(what, () => assert.deepEqual(answers(classify(err)), expected));
  }

  it('keeps the cause and names the class after the subclass', () => {
    const cause = pgError('22P05');
    const err = new UnopenableMessage('no', cause);
    assert.equal(err.cause, cause);
    assert.equal(err.name, 'UnopenableMessage');
    assert.ok(err instanceof ServiceError && err instanceof Error);
    assert.equal(new ApiError(404, 'not_found', 'x').name, 'ApiError');
  });
});

function dl(code: string): Classification {
  return { code, retriable: false, deadLetter: true, origin: 'postgres' };
}
function again(code: string, origin: Classification['origin']): Classification {
  return { code, retriable: true, deadLetter: false, origin };
}
function neither(code: string, origin: Classification['origin']): Classification {
  return { code, retriable: false, deadLetter: false, origin };
}
function unavailable(): Classification {
  return again('postgres_unavailable', 'postgres');
}
function net(code: string): Classification {
  return again(code, 'network');
}
function internal(): Classification {
  return neither('internal', 'runtime');
}
function mailFinal(reply: number): Classification {
  return { code: `smtp_${reply}`, retriable: false, deadLetter: false, origin: 'mail' };
}
function ours(code: string, retriable: boolean): Classification {
  return { code, retriable, deadLetter: false, origin: 'service' };
}
