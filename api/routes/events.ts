import Router from '@koa/router';
import { type TrackedEventInput, checkTimestamp, toRecord } from '../../lib/tracked-event.js';
import type { Pool } from '../../lib/db.js';
import { authenticate, requireScope } from '../auth.js';
import { jsonBody } from '../body.js';
import { fieldError } from '../errors.js';
import type { EventPublisher } from '../ingest.js';
import { validate } from '../validate.js';

/** POST /events and /events/batch: 202 only once every event of the request is durably in Kafka. */
export function eventsRoutes(db: Pool, publisher: EventPublisher): Router {
  const router = new Router();
  const guard = [authenticate(db), requireScope('events:write'), jsonBody()] as const;

  const accept = async (projectId: string, inputs: TrackedEventInput[], fieldOf: (i: number) => string) => {
    const receivedAt = Date.now();
    inputs.forEach((input, i) => {
      if (checkTimestamp(input.timestamp, receivedAt)) {
        throw fieldError(
          `${fieldOf(i)}timestamp`,
          'out_of_range',
          `${fieldOf(i)}timestamp must lie between 2000-01-01 and one day from now.`,
        );
      }
    });
    const records = inputs.map((input) => toRecord(projectId, input, receivedAt));
    await publisher.publish(records);
    return { accepted: records.length, message_ids: records.map((r) => r.message_id) };
  };

  router.post('/events', ...guard, async (ctx) => {
    const input = validate<TrackedEventInput>('tracked-event.json', ctx.request.json);
    ctx.body = await accept(ctx.state.auth.projectId, [input], () => '');
    ctx.status = 202;
  });

  router.post('/events/batch', ...guard, async (ctx) => {
    const { events } = validate<{ events: TrackedEventInput[] }>('event-batch.json', ctx.request.json);
    ctx.body = await accept(ctx.state.auth.projectId, events, (i) => `events[${i}].`);
    ctx.status = 202;
  });

  return router;
}
