import type { IpcClient } from '../ipc';
import { onReconnected } from '../transport';
import type { TerminalInfo, TerminalReplay } from '../../../../electron/shared/terminal/terminal-schemas';
import { concatenate } from '../bytes';

/** A session's byte totals as main counts them: received from the gateway and sent to it, as on the wire. */
export interface ByteTotals {
  bytesIn: number;
  bytesOut: number;
}

/**
 * Receives a session's output as byte chunks, in order, each with the session's totals when it was sent.
 * `isReplay`: output main had sent to an earlier page, drawn again here; main wrote off its acknowledgement, so it
 * must not be acknowledged again (that would count against output sent since).
 */
export type TerminalSink = (data: Uint8Array, totals: ByteTotals, isReplay: boolean) => void;

/**
 * Output held for a session whose terminal is not attached yet is merged into one chunk when it reaches this many
 * (many small echoes while the Terminals view has not been opened). Nothing is dropped: main stops sending once
 * its high watermark of unacknowledged bytes is reached, which bounds what is held.
 */
const MERGE_HELD_AT_CHUNKS = 1_000;

interface Held {
  chunks: Uint8Array[];
  totals: ByteTotals;
  /** The first chunk is main's replay of what an earlier page was sent (never acknowledged). */
  startsWithReplay?: boolean;
}

/**
 * The open terminal sessions as tabs, kept in step with main's `terminal:state` events, and the routing of each
 * session's `terminal:data` to its terminal. Guarantees: output that arrives before a terminal attaches is held,
 * every byte of it, and handed over in order on attach; a session closed elsewhere stays as a tab showing why until
 * closed here, or until an account signs in (then only the sessions main still has open stay); `load()` (at start, and again whenever the link to main returns) has main write off what earlier
 * pages, or output lost while the link was down, left unacknowledged, so that no session stays paused for it; and a
 * session this page has not shown yet (after a reload) starts from main's replay of its recent output, so that its
 * screen shows what the gateway printed before, not black until it prints again.
 */
export class TerminalsState {
  sessions = $state<TerminalInfo[]>([]);
  activeId = $state<string | null>(null);
  /** Why the last close was not clean (the server did not confirm the tunnel was stopped), until the next close. */
  closeWarning = $state<string | null>(null);
  readonly #client: IpcClient;
  // Routing tables, never rendered: plain Maps on purpose (no reactivity cost per output chunk).
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #sinks = new Map<string, TerminalSink>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #held = new Map<string, Held>();
  /** Sessions whose output this page has handed to a terminal: their screen is this page's, never replayed. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #shown = new Set<string>();
  readonly #stops: Array<() => void>;
  /** The account signed in last, as "profile id, user name" (undefined until one is known to this page). */
  #account: string | undefined;

  constructor(client: IpcClient) {
    this.#client = client;
    this.#stops = [
      client.on('terminal:data', ({ id, data, bytesIn, bytesOut }) => {
        const totals = { bytesIn, bytesOut };
        const sink = this.#sinks.get(id);
        if (sink) {
          sink(data, totals, false);
          return;
        }
        const held = this.#held.get(id) ?? { chunks: [], totals };
        held.chunks.push(data);
        held.totals = totals;
        if (held.chunks.length >= MERGE_HELD_AT_CHUNKS) {
          // The replay stays apart: it is the one chunk not to acknowledge.
          const kept = held.startsWithReplay ? 1 : 0;
          held.chunks = [...held.chunks.slice(0, kept), concatenate(held.chunks.slice(kept))];
        }
        this.#held.set(id, held);
      }),
      client.on('terminal:state', ({ session }) => this.#update(session)),
      client.on('session:changed', (summary) => {
        if (!summary) return;
        const account = JSON.stringify([summary.profileId, summary.username]);
        if (account === this.#account) return;
        this.#account = account;
        void this.#keepOnlyListed();
      }),
      onReconnected(client.transport, () => void this.load()),
    ];
  }

  /** The tab shown now. */
  get active(): TerminalInfo | undefined {
    return this.sessions.find((session) => session.id === this.activeId);
  }

  /**
   * Takes over the sessions main has open (after a start or a reload): main first writes off the acknowledgements
   * an earlier page still owed, then the sessions are read.
   */
  async load(): Promise<void> {
    const attached = await this.#client.invoke('terminals:attach');
    if (attached.ok) for (const replay of attached.value.replays) this.#replay(replay);
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
    const held = this.#held.get(id);
    this.#held.delete(id);
    held?.chunks.forEach((data, index) =>
      sink(data, held.totals, index === 0 && held.startsWithReplay === true),
    );
    this.#sinks.set(id, sink);
    this.#shown.add(id);
    return () => {
      if (this.#sinks.get(id) === sink) this.#sinks.delete(id);
    };
  }

  /**
   * Closes a session in main (an SSH one stops its tunnel) and removes its tab; when the tunnel's stop was not
   * confirmed, `closeWarning` says so.
   */
  async close(id: string): Promise<void> {
    this.closeWarning = null;
    const result = await this.#client.invoke('terminal:close', { id });
    if (result.ok && result.value.warning) this.closeWarning = result.value.warning;
    this.#sinks.delete(id);
    this.#held.delete(id);
    this.#shown.delete(id);
    const index = this.sessions.findIndex((session) => session.id === id);
    this.sessions = this.sessions.filter((session) => session.id !== id);
    if (this.activeId === id) this.activeId = this.sessions[Math.max(0, index - 1)]?.id ?? null;
  }

  /** Stops listening to main. */
  dispose(): void {
    for (const stop of this.#stops) stop();
  }

  /**
   * After an account signed in: main has closed the sessions of any other account, so every tab main no longer
   * lists goes, with its held output and its place in the routing. No screen of one account stays on show to the
   * next (a closed tab would otherwise stay, with its scrollback, until closed here).
   */
  async #keepOnlyListed(): Promise<void> {
    const result = await this.#client.invoke('terminals:list');
    if (!result.ok) return;
    // A lookup for this one pass, never rendered.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const listed = new Set(result.value.sessions.map((session) => session.id));
    for (const session of this.sessions) {
      if (listed.has(session.id)) continue;
      this.#sinks.delete(session.id);
      this.#held.delete(session.id);
      this.#shown.delete(session.id);
    }
    this.sessions = this.sessions.filter((session) => listed.has(session.id));
    for (const session of result.value.sessions) this.#update(session);
    if (!this.sessions.some((session) => session.id === this.activeId))
      this.activeId = this.sessions[0]?.id ?? null;
  }

  /**
   * Takes main's replay of a session's recent output as what its terminal starts with, when this page has not shown
   * the session yet: the replay holds everything main sent before it, so output held meanwhile is in it already.
   * (A page that did show the session keeps its own screen: after a lost link only the gap is missing.)
   */
  #replay(replay: TerminalReplay): void {
    if (this.#shown.has(replay.id)) return;
    this.#held.set(replay.id, {
      chunks: [decodeBase64(replay.data)],
      totals: { bytesIn: replay.bytesIn, bytesOut: replay.bytesOut },
      startsWithReplay: true,
    });
  }

  #update(session: TerminalInfo): void {
    const index = this.sessions.findIndex((known) => known.id === session.id);
    if (index === -1) this.sessions = [...this.sessions, session];
    else this.sessions = this.sessions.map((known) => (known.id === session.id ? session : known));
  }
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
