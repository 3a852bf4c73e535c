/**
 * Binary WebSocket frames for pushed events that carry bytes (`terminal:data`). A flood through JSON would
 * base64 every byte, then stringify, parse and decode it again, which costs main and the page more than xterm's own
 * parsing (docs/benchmarks.md, experiments kept). The frame is the event's JSON header followed by the raw bytes:
 *
 *   [u32 big-endian header length][header: UTF-8 JSON { event, payload without `data` }][data bytes]
 *
 * Events without a `Uint8Array` `data` field stay JSON text frames.
 */

/** A pushed event whose payload has its bytes in `data`. */
export interface BinaryEvent {
  event: string;
  payload: { data: Uint8Array } & Record<string, unknown>;
}

const HEADER_LENGTH_BYTES = 4;

/** True when the payload carries bytes in `data`, so the event goes as a binary frame. */
export function hasBinaryData(payload: unknown): payload is BinaryEvent['payload'] {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    (payload as { data?: unknown }).data instanceof Uint8Array
  );
}

/**
 * Frames an event with bytes as its two parts, to be sent as one message: the header length and JSON header, then
 * the bytes as they are (not copied: a flood's megabytes would otherwise be copied once more on their way out, and
 * every copy is garbage to collect).
 */
export function encodeEventFrame(
  event: string,
  payload: BinaryEvent['payload'],
): [prefix: Uint8Array, data: Uint8Array] {
  const { data, ...rest } = payload;
  const header = new TextEncoder().encode(JSON.stringify({ event, payload: rest }));
  const prefix = new Uint8Array(HEADER_LENGTH_BYTES + header.byteLength);
  new DataView(prefix.buffer).setUint32(0, header.byteLength);
  prefix.set(header, HEADER_LENGTH_BYTES);
  return [prefix, data];
}

/**
 * Reads a frame made by encodeEventFrame; `data` is a view into `frame` (no copy). Returns undefined for a frame
 * that is too short, whose header is not JSON, or that names no event.
 */
export function decodeEventFrame(frame: ArrayBuffer | Uint8Array): BinaryEvent | undefined {
  const bytes = frame instanceof Uint8Array ? frame : new Uint8Array(frame);
  if (bytes.byteLength < HEADER_LENGTH_BYTES) return undefined;
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  const dataStart = HEADER_LENGTH_BYTES + headerLength;
  if (dataStart > bytes.byteLength) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(HEADER_LENGTH_BYTES, dataStart)));
  } catch {
    return undefined;
  }
  const { event, payload } = (header ?? {}) as { event?: unknown; payload?: unknown };
  if (typeof event !== 'string' || typeof payload !== 'object' || payload === null) return undefined;
  return { event, payload: { ...(payload as Record<string, unknown>), data: bytes.subarray(dataStart) } };
}
