import type { Duplex } from 'node:stream';

/**
 * Joins two duplex streams both ways with backpressure (`pipe`), and tears both down when either
 * side closes or fails, so a half-dead forward never lingers.
 */
export function joinStreams(left: Duplex, right: Duplex): void {
  left.pipe(right);
  right.pipe(left);
  const destroyBoth = () => {
    left.destroy();
    right.destroy();
  };
  left.once('close', destroyBoth);
  right.once('close', destroyBoth);
  // Errors end the forward; the close handlers above do the cleanup.
  left.on('error', () => undefined);
  right.on('error', () => undefined);
}
