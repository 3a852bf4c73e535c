import { events, type EventName, type EventPayload } from './contract';

/** Receives one event of the contract. */
export type EventListener<E extends EventName> = (payload: EventPayload<E>) => void;
/** Receives every event of the contract (a transport forwarding them to the renderer). */
export type AnyEventListener = (event: EventName, payload: unknown) => void;

/**
 * Typed events from services to transports. Guarantees: every payload emitted matches its contract schema
 * (a mismatch throws at the emitter, a bug on our side); a throwing listener does not stop the others.
 */
export class EventHub {
  private readonly listeners = new Set<AnyEventListener>();

  /** Validates and delivers an event to every listener. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = events[event].parse(payload);
    for (const listener of [...this.listeners]) {
      try {
        listener(event, checked);
      } catch {
        // One broken transport must not silence the others.
      }
    }
  }

  /** Subscribes to one event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: EventListener<E>): () => void {
    return this.onAny((name, payload) => {
      if (name === event) listener(payload as EventPayload<E>);
    });
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  onAny(listener: AnyEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
