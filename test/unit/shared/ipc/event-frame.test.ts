import { describe, expect, it } from 'vitest';
import {
  decodeEventFrame,
  encodeEventFrame,
  hasBinaryData,
} from '../../../../electron/shared/ipc/event-frame';

describe('binary event frames', () => {
  it('carries an event, its other payload fields and every byte value unchanged', () => {
    const data = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
    const frame = Buffer.concat(encodeEventFrame('terminal:data', { id: 'term-1', data }));
    const decoded = decodeEventFrame(
      frame.buffer.slice(frame.byteOffset, frame.byteOffset + frame.byteLength),
    );
    expect(decoded?.event).toBe('terminal:data');
    expect(decoded?.payload.id).toBe('term-1');
    expect([...decoded!.payload.data]).toEqual([...data]);
  });

  it('reads a frame that is a view into a larger buffer', () => {
    const frame = Buffer.concat(
      encodeEventFrame('terminal:data', { id: 'term-2', data: new Uint8Array([1, 2, 3]) }),
    );
    const padded = new Uint8Array(frame.byteLength + 10);
    padded.set(frame, 5);
    expect([...decodeEventFrame(padded.subarray(5, 5 + frame.byteLength))!.payload.data]).toEqual([1, 2, 3]);
  });

  it('leaves the bytes where they are: the second part is the payload data itself', () => {
    const data = new Uint8Array([7, 8, 9]);
    expect(encodeEventFrame('terminal:data', { id: 'term-3', data })[1]).toBe(data);
  });

  it('refuses frames that are short, claim a longer header, or whose header is not an event', () => {
    expect(decodeEventFrame(new Uint8Array([0, 0]))).toBeUndefined();
    expect(decodeEventFrame(new Uint8Array([0, 0, 0, 9, 0x7b, 0x7d]))).toBeUndefined();
    const notJson = new TextEncoder().encode('nope');
    expect(decodeEventFrame(new Uint8Array([0, 0, 0, 4, ...notJson]))).toBeUndefined();
    const noEvent = new TextEncoder().encode('{"payload":{}}');
    expect(decodeEventFrame(new Uint8Array([0, 0, 0, noEvent.length, ...noEvent]))).toBeUndefined();
  });

  it('is used only for payloads whose data is bytes', () => {
    expect(hasBinaryData({ id: 'a', data: new Uint8Array(1) })).toBe(true);
    expect(hasBinaryData({ id: 'a', data: 'text' })).toBe(false);
    expect(hasBinaryData(null)).toBe(false);
  });
});
