import { describe, expect, it } from 'vitest';
import { describeLoadFailure } from '../../../../renderer/src/lib/load-failure';

describe('describeLoadFailure', () => {
  it('names what failed to load and why, in one wording for every view', () => {
    expect(describeLoadFailure({ code: 'NETWORK', message: 'refused' }, 'the gateways')).toMatch(
      /^Could not load the gateways: the server could not be reached\./,
    );
    expect(describeLoadFailure({ code: 'TIMEOUT', message: 'x' }, 'the events')).toBe(
      'Could not load the events: the server did not answer in time.',
    );
  });

  it('tells a dropped connection from an unreachable server', () => {
    expect(describeLoadFailure({ code: 'INTERRUPTED', message: 'x' }, 'the devices')).toBe(
      'Could not load the devices: the connection dropped before the answer came.',
    );
  });

  it('reads 403 and 404 from the HTTP status when the code is a general API error', () => {
    expect(
      describeLoadFailure({ code: 'API_ERROR', message: 'x', details: { status: 404 } }, 'the devices'),
    ).toMatch(/does not know what was asked for/);
    expect(describeLoadFailure({ code: 'FORBIDDEN', message: 'x' }, 'the devices')).toMatch(/has no access/);
  });

  it('says an expired session reloads by itself after signing in', () => {
    expect(describeLoadFailure({ code: 'SESSION_EXPIRED', message: 'x' }, 'the gateways')).toMatch(
      /Once you sign in again it loads by itself/,
    );
  });

  it('passes a server failure through without a doubled full stop', () => {
    expect(
      describeLoadFailure({ code: 'API_ERROR', message: 'Simulated server failure.' }, 'the gateways'),
    ).toBe('Could not load the gateways: the server failed (Simulated server failure).');
  });

  it('says the server is down, not the laptop, when it refused the connection', () => {
    const refused = describeLoadFailure(
      { code: 'NETWORK', message: 'refused', details: { network: 'refused' } },
      'the devices',
    );
    expect(refused).toMatch(
      /^Could not load the devices: the server does not answer\. It refused the connection/,
    );
    expect(refused).not.toMatch(/Check this laptop/);
    expect(
      describeLoadFailure(
        { code: 'NETWORK', message: 'x', details: { network: 'name-not-found' } },
        'the devices',
      ),
    ).toMatch(/Check this laptop's network/);
  });
});
