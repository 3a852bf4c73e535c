import { describe, expect, it } from 'vitest';
import { findReconnectPath } from '../../../../electron/services/serial/port-matching';
import { createPortInfo } from './fake-binding';

const FTDI = { vendorId: '0403', productId: '6001' };

describe('findReconnectPath', () => {
  it('follows the serial number to a new path', () => {
    const ports = [
      createPortInfo({ path: '/dev/ttyUSB0', serialNumber: 'B', ...FTDI }),
      createPortInfo({ path: '/dev/ttyUSB1', serialNumber: 'A', ...FTDI }),
    ];
    expect(findReconnectPath({ path: '/dev/ttyUSB0', serialNumber: 'A', ...FTDI }, ports)).toBe(
      '/dev/ttyUSB1',
    );
  });

  it('never takes another adapter that now sits at the old path', () => {
    const ports = [createPortInfo({ path: '/dev/ttyUSB0', serialNumber: 'B', ...FTDI })];
    expect(findReconnectPath({ path: '/dev/ttyUSB0', serialNumber: 'A', ...FTDI }, ports)).toBeUndefined();
  });

  it('takes the only adapter with the same VID/PID when there is no serial number', () => {
    const ports = [createPortInfo({ path: '/dev/ttyACM3', vendorId: '0403', productId: '6001' })];
    expect(findReconnectPath({ path: '/dev/ttyACM0', ...FTDI }, ports)).toBe('/dev/ttyACM3');
  });

  it('prefers the old path among several adapters with the same VID/PID', () => {
    const ports = [
      createPortInfo({ path: '/dev/ttyUSB0', ...FTDI }),
      createPortInfo({ path: '/dev/ttyUSB1', ...FTDI }),
    ];
    expect(findReconnectPath({ path: '/dev/ttyUSB1', ...FTDI }, ports)).toBe('/dev/ttyUSB1');
  });

  it('tries an unlisted path such as a pseudo-terminal as it is', () => {
    expect(findReconnectPath({ path: '/tmp/console' }, [createPortInfo({ path: '/dev/ttyS0' })])).toBe(
      '/tmp/console',
    );
  });
});
