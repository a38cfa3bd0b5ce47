import {
  type TrackedEventInput,
  BROWSER_MESSAGE_PREFIX,
  checkTimestamp,
  toRecord,
} from '../../domain/tracked-event.js';
import { IDENTIFY_EVENT } from '../../domain/identity.js';
import { withoutPii } from '../../domain/pii-filter.js';
import { userKey } from '../../lib/kafka/topics.js';
import { sealEvent } from '../../domain/sealed-user.js';
import type { UserSealing } from '../sealing.js';
import { RETRY_AFTER_S, fieldError, unavailable } from '../errors.js';
import type { Logger } from '../../lib/log.js';
import type { Publisher } from '../publisher.js';
import { type Route, defineRoute } from '../route.js';
import { requestWaits } from '../waits.js';

/**
 * POST /events and /events/batch: 202 only once every event of the request is durably in Kafka,
 * keyed by the user's pseudonym and sealed with the user's key
 * (docs/adr/0045-erasure-through-kafka.md).
 */
export function eventRoutes(publisher: Publisher, sealing: UserSealing, log: Logger): Route[] {
  const accept = async (
    projectId: string,
    browser: boolean,
    inputs: TrackedEventInput[],
    fieldOf: (i: number) => string,
  ) => {
    const receivedAt = Date.now();
    inputs.forEach((input, i) => {
      if (input.message_id?.startsWith(BROWSER_MESSAGE_PREFIX) && !browser) {
        const field = `${fieldOf(i)}message_id`;
        throw fieldError(
          field,
          'reserved',
          `${field} may not start with ${BROWSER_MESSAGE_PREFIX}: those are the ids of events sent with a browser key.`,
        );
      }
      if (input.event === IDENTIFY_EVENT) {
        const field = `${fieldOf(i)}event`;
        throw fieldError(
          field,
          'reserved',
          `${field} ${IDENTIFY_EVENT} is reserved: link an anonymous id to a user with POST /v1/users/identify and its anonymous_id.`,
        );
      }
      if (checkTimestamp(input.timestamp, receivedAt)) {
        const field = `${fieldOf(i)}timestamp`;
        throw fieldError(field, 'out_of_range', `${field} must lie between 2000-01-01 and one day from now.`);
      }
    });
    // Personal-looking values never reach Kafka, whichever client sent them (domain/pii-filter.ts).
    // Anyone may send with a browser key: its events are marked as such, so they can neither take a
    // server's message ids first nor make the service sign a delivery (docs/adr/0086).
    const prefix = browser ? BROWSER_MESSAGE_PREFIX : '';
    const records = inputs.map((input) => toRecord(projectId, withoutPii(input), receivedAt, prefix));
    const users = [...new Set(records.map((r) => r.user_id))];
    const keys = await requestWaits.timed('user_keys', sealing.keysFor(projectId, users)).catch((err: unknown) => {
      log.error({ err }, 'user keys could not be read or made');
      throw unavailable('The key store is unavailable; nothing was applied. Retry the request.', RETRY_AFTER_S);
    });
    const messages = records.map((r) => {
      const { ref, key } = keys.get(r.user_id)!;
      return { key: userKey(r.project_id, ref), value: sealEvent(r, ref, key), timestamp: r.received_at };
    });
    await requestWaits.timed('kafka', publisher.publish('events', messages));
    return { accepted: records.length, message_ids: records.map((r) => r.message_id) };
  };

  return [
    defineRoute<TrackedEventInput>({
      method: 'POST',
      path: '/events',
      tag: 'Events',
      summary: 'Record one event',
      scope: 'events:write',
      ingests: true,
      body: 'tracked-event.json',
      success: {
        status: 202,
        schema: 'Accepted',
        description: '{ accepted: 1, message_ids } once the event is durably stored',
      },
      async handle(ctx, input) {
        ctx.body = await accept(ctx.state.auth.projectId, ctx.state.auth.allowedOrigins !== null, [input], () => '');
        ctx.status = 202;
      },
    }),
    defineRoute<{ events: TrackedEventInput[] }>({
      method: 'POST',
      path: '/events/batch',
      tag: 'Events',
      summary: 'Record up to 1,000 events, all or nothing',
      scope: 'events:write',
      ingests: true,
      body: 'event-batch.json',
      success: {
        status: 202,
        schema: 'Accepted',
        description: '{ accepted, message_ids } once every event is durably stored',
      },
      async handle(ctx, input) {
        ctx.body = await accept(
          ctx.state.auth.projectId,
          ctx.state.auth.allowedOrigins !== null,
          input.events,
          (i) => `events[${i}].`,
        );
        ctx.status = 202;
      },
    }),
  ];
}
