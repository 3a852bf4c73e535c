import type {
  TerminalSession,
  TerminalState,
} from '../../../electron/services/terminal-core/terminal-session';

/** Plays the renderer: collects a session's data and, unless told otherwise, acknowledges it like xterm would. */
export function readTerminal(session: TerminalSession, options: { isAcknowledging?: boolean } = {}) {
  const chunks: Buffer[] = [];
  let total = 0;
  let text = '';
  let isAcknowledging = options.isAcknowledging ?? true;
  let unacknowledged = 0;
  /** Each waiter sees every new piece of text; returning true removes it. */
  const waiters = new Set<(piece: string) => boolean>();
  const collect = () => Buffer.concat(chunks, total);
  session.on('data', (chunk) => {
    chunks.push(Buffer.from(chunk));
    total += chunk.length;
    const piece = Buffer.from(chunk).toString('latin1');
    text += piece;
    if (isAcknowledging) queueMicrotask(() => session.acknowledge(chunk.length));
    else unacknowledged += chunk.length;
    for (const waiter of [...waiters]) if (waiter(piece)) waiters.delete(waiter);
  });
  return {
    get byteCount() {
      return total;
    },
    get text() {
      return text;
    },
    /** Starts acknowledging again, first everything held back. */
    startAcknowledging() {
      isAcknowledging = true;
      session.acknowledge(unacknowledged);
      unacknowledged = 0;
    },
    /** Resolves with the text once `text` appears after position `from`. */
    waitForText(wanted: string, from = 0): Promise<string> {
      return new Promise((resolve) => {
        // Search each new piece plus the tail of the one before, never the whole (ever-growing) text.
        let window = text.slice(from);
        const check = (piece: string) => {
          window += piece;
          if (window.includes(wanted)) {
            resolve(text);
            return true;
          }
          window = window.slice(-(wanted.length - 1) || window.length);
          return false;
        };
        if (!check('')) waiters.add(check);
      });
    },
    waitForBytes(byteCount: number): Promise<Buffer> {
      return new Promise((resolve) => {
        const check = () => (total >= byteCount ? (resolve(collect()), true) : false);
        if (!check()) waiters.add(check);
      });
    },
  };
}

/** Resolves with the reason once the session reaches the state. */
export function waitForState(session: TerminalSession, state: TerminalState): Promise<string | undefined> {
  return new Promise((resolve) => {
    const listener = (next: TerminalState, reason?: string) => {
      if (next === state) resolve(reason);
    };
    session.on('state', listener);
  });
}
