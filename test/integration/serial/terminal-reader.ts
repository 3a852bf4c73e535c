import type { TerminalSession, TerminalState } from '../../../electron/services/terminal/terminal-session';

/** Plays the renderer: collects a session's data and, unless told otherwise, acknowledges it like xterm would. */
export function readTerminal(session: TerminalSession, options: { isAcknowledging?: boolean } = {}) {
  const chunks: Buffer[] = [];
  let total = 0;
  let text = '';
  let isAcknowledging = options.isAcknowledging ?? true;
  let unacknowledged = 0;
  const waiters = new Set<() => boolean>();
  const collect = () => Buffer.concat(chunks, total);
  session.on('data', (chunk) => {
    chunks.push(Buffer.from(chunk));
    total += chunk.length;
    text += Buffer.from(chunk).toString('latin1');
    if (isAcknowledging) queueMicrotask(() => session.acknowledge(chunk.length));
    else unacknowledged += chunk.length;
    for (const waiter of [...waiters]) if (waiter()) waiters.delete(waiter);
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
        // Search only what is new since the last look (plus an overlap), so a long flood stays linear.
        let searchFrom = from;
        const check = () => {
          if (text.indexOf(wanted, searchFrom) >= 0) {
            resolve(text);
            return true;
          }
          searchFrom = Math.max(from, text.length - wanted.length);
          return false;
        };
        if (!check()) waiters.add(check);
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
