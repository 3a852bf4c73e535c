import { describe, expect, it } from 'vitest';
import {
  describeMqttError,
  describeNetworkError,
  httpTargetOf,
} from '../../../../electron/services/integrations';

describe('httpTargetOf', () => {
  it('joins host, port and basePath', () => {
    expect(
      httpTargetOf({ host: 'http://hooks.example.com', port: 8080, basePath: 'uplink' }).toString(),
    ).toBe('http://hooks.example.com:8080/uplink');
  });

  it('switches to https when enableHttps is set', () => {
    expect(httpTargetOf({ host: 'http://hooks.example.com', port: 8443, enableHttps: true }).protocol).toBe(
      'https:',
    );
  });
});

describe('laptop test messages', () => {
  it('says a refused password in words', () => {
    const error = Object.assign(new Error('Connection refused: Bad User Name or Password'), { code: 4 });
    expect(describeMqttError(error, 10)).toContain('check the token (user name) and password');
  });

  it('says a connection refused by the port in words', () => {
    expect(describeNetworkError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), 10)).toBe(
      'nothing accepts connections on that port (connection refused)',
    );
  });

  it('names the wait when nothing answers', () => {
    expect(describeMqttError(new Error('connack timeout'), 7)).toBe(
      'the broker did not accept the connection within 7 s',
    );
  });
});
