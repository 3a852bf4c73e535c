import type { IpcClient } from '../ipc';
import type { TerminalInfo } from '../../../../electron/shared/terminal/terminal-schemas';

/** Receives a session's output as byte chunks, in order. */
export type TerminalSink = (data: Uint8Array) => void;

/** Output held for a session whose terminal is not attached yet (the tab is being created). */
const MAX_HELD_CHUNKS = 10_000;

/**
 * The open terminal sessions as tabs, kept in step with main's `terminal:state` events, and the routing of each
 * session's `terminal:data` to its terminal. Guarantees: output that arrives before a terminal attaches is held and
 * handed over in order on attach; a session closed elsewhere stays as a tab showing why until closed here.
 */
export class TerminalsState {
  sessions = $state<TerminalInfo[]>([]);
  activeId = $state<string | null>(null);
  readonly #client: IpcClient;
  // Routing tables, never rendered: plain Maps on purpose (no reactivity cost per output chunk).
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #sinks = new Map<string, TerminalSink>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #held = new Map<string, Uint8Array[]>();
  readonly #stops: Array<() => void>;

  constructor(client: IpcClient) {
    this.#client = client;
    this.#stops = [
      client.on('terminal:data', ({ id, data }) => {
        const sink = this.#sinks.get(id);
        if (sink) {
          sink(data);
          return;
        }
        const held = this.#held.get(id) ?? [];
        if (held.length < MAX_HELD_CHUNKS) held.push(data);
        this.#held.set(id, held);
      }),
      client.on('terminal:state', ({ session }) => this.#update(session)),
    ];
  }

  /** The tab shown now. */
  get active(): TerminalInfo | undefined {
    return this.sessions.find((session) => session.id === this.activeId);
  }

  /** Reads the sessions main already has open (after a reload). */
  async load(): Promise<void> {
    const result = await this.#client.invoke('terminals:list');
    if (!result.ok) return;
    for (const session of result.value.sessions) this.#update(session);
    if (!this.activeId && this.sessions.length > 0) this.activeId = this.sessions[0]!.id;
  }

  /** Adds a session just opened and shows it. */
  add(session: TerminalInfo): void {
    this.#update(session);
    this.activeId = session.id;
  }

  /** Routes a session's output to its terminal, first handing over what arrived before; returns the detach. */
  attach(id: string, sink: TerminalSink): () => void {
    const held = this.#held.get(id) ?? [];
    this.#held.delete(id);
    for (const data of held) sink(data);
    this.#sinks.set(id, sink);
    return () => {
      if (this.#sinks.get(id) === sink) this.#sinks.delete(id);
    };
  }

  /** Closes a session in main (an SSH one stops its tunnel) and removes its tab. */
  async close(id: string): Promise<void> {
    await this.#client.invoke('terminal:close', { id });
    this.#sinks.delete(id);
    this.#held.delete(id);
    const index = this.sessions.findIndex((session) => session.id === id);
    this.sessions = this.sessions.filter((session) => session.id !== id);
    if (this.activeId === id) this.activeId = this.sessions[Math.max(0, index - 1)]?.id ?? null;
  }

  /** Stops listening to main. */
  dispose(): void {
    for (const stop of this.#stops) stop();
  }

  #update(session: TerminalInfo): void {
    const index = this.sessions.findIndex((known) => known.id === session.id);
    if (index === -1) this.sessions = [...this.sessions, session];
    else this.sessions = this.sessions.map((known) => (known.id === session.id ? session : known));
  }
}
