import { describe, expect, it } from 'vitest';
import {
  formatFraming,
  parseSerialOpenOptions,
  SerialOptionsError,
} from '../../../../electron/services/serial/options';

describe('parseSerialOpenOptions', () => {
  it('defaults to 115200 8N1, CR on Enter, logging on, auto-reconnect on and DTR/RTS left alone', () => {
    const options = parseSerialOpenOptions({ path: '/dev/ttyUSB0' });
    expect(formatFraming(options)).toBe('115200 8N1');
    expect(options).toMatchObject({
      txNewline: 'cr',
      rxNewline: 'as-is',
      logging: true,
      autoReconnect: true,
    });
    expect(options.dtr).toBeUndefined();
    expect(options.rts).toBeUndefined();
  });

  it('accepts any whole baud rate and every framing the issue names', () => {
    const options = parseSerialOpenOptions({
      path: 'COM3',
      baudRate: 31_337,
      dataBits: 5,
      stopBits: 1.5,
      parity: 'space',
      flowControl: 'xon-xoff',
    });
    expect(formatFraming(options)).toBe('31337 5S1.5');
  });

  it('names every bad field in one message', () => {
    let error: unknown;
    try {
      parseSerialOpenOptions({
        path: ' ',
        baudRate: 9600.5,
        dataBits: 9,
        parity: 'sometimes',
        txNewline: 'enter',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SerialOptionsError);
    expect((error as SerialOptionsError).problems).toEqual([
      'path: Choose a serial port or type its path',
      'baudRate: Baud rate must be a whole number, e.g. 115200',
      'dataBits: Data bits must be 5, 6, 7 or 8',
      'parity: Parity must be one of none, even, odd, mark or space',
      'txNewline: TX newline must be cr, lf or crlf',
    ]);
  });

  it('refuses a log pattern that would leave the logs folder', () => {
    expect(() => parseSerialOpenOptions({ path: '/dev/ttyS0', logPattern: '../{gateway}.log' })).toThrow(
      /may not contain/,
    );
  });
});
