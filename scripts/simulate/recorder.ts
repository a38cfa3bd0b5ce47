/** The default traffic's event builder: emits events and hands each finished session to the tally. */
import type { TrackedEventInput } from '../../domain/tracked-event.js';
import type { Dice } from './dice.js';
import type { Logged, PlantedSignal, Tally, UiContext } from './tally.js';

/** `emit` and `plant` are bound, so the generators can take them apart (`const { emit } = recorder`). */
export class Recorder {
  readonly events: TrackedEventInput[] = [];
  // The session being generated, and the signals planted in it; `endSession` tallies and clears them.
  private log: Logged[] = [];
  private signals: PlantedSignal[] = [];

  constructor(
    private readonly seed: number,
    private readonly tally: Tally,
  ) {}

  /** Emits an event; `context` is how the plan meant its ui_context (a page's view empty or with data). */
  readonly emit = (
    user: string,
    t: number,
    event: string,
    properties: Record<string, unknown>,
    context: UiContext = 'with_data_present',
  ): string => {
    const id = `sim-${this.seed}-${this.events.length}`;
    this.events.push({ user_id: user, event, properties, timestamp: new Date(t).toISOString(), message_id: id });
    this.log.push({
      id,
      t,
      event,
      page: properties.page as string,
      element: properties.element as string | undefined,
      context,
    });
    this.tally.noteEvent(user, t);
    return id;
  };

  /** Notes a signal planted in the session being generated (it fails the events it follows closely). */
  readonly plant = (signal: PlantedSignal): void => {
    this.signals.push(signal);
  };

  endSession(): void {
    this.tally.endSession(this.log, this.signals);
    this.log = [];
    this.signals = [];
  }
}

/** What the generators of the default traffic share. */
export interface Generation {
  dice: Dice;
  recorder: Recorder;
  tally: Tally;
}
