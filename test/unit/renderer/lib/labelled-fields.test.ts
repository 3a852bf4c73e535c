import { describe, expect, it } from 'vitest';
import {
  formatSeconds,
  labelForKey,
  toLabelledFields,
} from '../../../../renderer/src/lib/components/labelled-fields';

describe('labelForKey', () => {
  it.each([
    ['uptimeSeconds', 'Uptime seconds'],
    ['bspVersion', 'BSP version'],
    ['packets_recv', 'Packets received'],
    ['custGatewayId', 'Customer gateway ID'],
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
          { key: 'lo', label: 'lo', text: '127.0.0.1' },
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

describe('formatSeconds', () => {
  it.each([
    [54_056, '15 hr'],
    [54_956, '15 hr 15 min'],
    [95, '1 min 35 sec'],
    [0, '0 sec'],
    [200_000, '2 days 7 hr'],
    [3600, '1 hr'],
  ])('reads %i seconds as “%s”', (seconds, text) => {
    expect(formatSeconds(seconds)).toBe(text);
  });

  it('leaves a value that is not a duration as it is', () => {
    expect(formatSeconds(-5)).toBe('-5');
    expect(formatSeconds(Number.NaN)).toBe('NaN');
  });
});

describe('toLabelledFields, durations and names', () => {
  it('shows a number of seconds as a duration under the name without its unit', () => {
    expect(toLabelledFields({ uptimeSeconds: 54_056 })).toEqual([
      { key: 'uptimeSeconds', label: 'Uptime', text: '15 hr' },
    ]);
  });

  it('leaves milliseconds and other numbers alone', () => {
    expect(toLabelledFields({ latencyMilliseconds: 120, uptime_seconds: 61 })).toEqual([
      { key: 'latencyMilliseconds', label: 'Latency milliseconds', text: '120' },
      { key: 'uptime_seconds', label: 'Uptime', text: '1 min 1 sec' },
    ]);
  });

  it('keeps interface names as the gateway spells them', () => {
    const [interfaces] = toLabelledFields({ interfaces: { lo: '127.0.0.1', wwan0: '10.0.0.2', br_lan: '' } });
    expect(interfaces?.children?.map((field) => field.label)).toEqual(['lo', 'wwan0', 'br_lan']);
  });
});
