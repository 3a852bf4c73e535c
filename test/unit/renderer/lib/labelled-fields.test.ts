import { describe, expect, it } from 'vitest';
import { labelForKey, toLabelledFields } from '../../../../renderer/src/lib/components/labelled-fields';

describe('labelForKey', () => {
  it.each([
    ['uptimeSeconds', 'Uptime seconds'],
    ['bspVersion', 'BSP version'],
    ['packets_recv', 'Packets recv'],
    ['custGatewayId', 'Cust gateway ID'],
    ['eth0', 'eth0'],
    ['ver', 'Version'],
    ['newVer', 'New version'],
  ])('reads %s as “%s”', (key, label) => {
    expect(labelForKey(key)).toBe(label);
  });
});

describe('toLabelledFields', () => {
  it('gives a GPS fix one labelled field per value', () => {
    expect(toLabelledFields({ latitude: 47.37, longitude: 8.54, fix: '3D' })).toEqual([
      { key: 'latitude', label: 'Latitude', text: '47.37' },
      { key: 'longitude', label: 'Longitude', text: '8.54' },
      { key: 'fix', label: 'Fix', text: '3D' },
    ]);
  });

  it('nests an object and says what an empty value is', () => {
    expect(toLabelledFields({ interfaces: { eth0: '', lo: '127.0.0.1' } })).toEqual([
      {
        key: 'interfaces',
        label: 'Interfaces',
        text: '',
        children: [
          { key: 'eth0', label: 'eth0', text: '(empty)' },
          { key: 'lo', label: 'Lo', text: '127.0.0.1' },
        ],
      },
    ]);
  });

  it('joins a list of plain values on one line', () => {
    expect(toLabelledFields({ dns: ['1.1.1.1', '8.8.8.8'] })[0]?.text).toBe('1.1.1.1, 8.8.8.8');
  });

  it('shows a plain answer as one value', () => {
    expect(toLabelledFields('OK')).toEqual([{ key: 'value', label: 'Value', text: 'OK' }]);
  });
});
