import { describe, expect, it } from 'vitest';
import { createGatewayState, isOnline } from '../../../simulator/gateways/state';
import {
  CLOCK_SKEW_MS,
  parseScenarioFlag,
  PING_CHECK_RESTART_MS,
  Scenarios,
  settleWithPingWatchdog,
} from '../../../simulator/scenarios';
import { createTenant } from '../../../simulator/tenant';
import { SIMULATED_START_MS } from '../../helpers/manual-clock';

const tenant = createTenant({
  seed: 1,
  gateways: 24,
  devices: 0,
  customers: 2,
  offlineFraction: 0,
  nowMs: SIMULATED_START_MS,
});
const timings = { rebootMs: 30_000, downloadMs: 10_000, installMs: 10_000 };

describe('scenario flags', () => {
  it('reads faults for every gateway and for one', () => {
    expect(parseScenarioFlag(['weak-lte,no-gps', 'gw-7=healthy'])).toEqual({
      '*': ['weak-lte', 'no-gps'],
      'gw-7': ['healthy'],
    });
  });

  it('refuses an unknown fault, naming it and the known ones', () => {
    expect(() => parseScenarioFlag(['weak-lte,sunspots'])).toThrow(
      /--scenario: unknown fault "sunspots" \(known: healthy, weak-lte/,
    );
  });
});

describe('a firewall that blocks the ping check', () => {
  it('makes the gateway restart every few minutes until ping is let through', () => {
    const entity = tenant.gateways[0]!;
    const state = createGatewayState(entity, SIMULATED_START_MS);
    new Scenarios({ [entity.id]: ['healthy', 'firewall-blocks-ping'] }).apply(state, SIMULATED_START_MS);
    const bootedAt = state.bootedAt;
    // Two periods after boot: restarted twice, and back up after the second restart's reboot time.
    const later = bootedAt + 2 * (PING_CHECK_RESTART_MS + timings.rebootMs) + 1_000;
    expect(settleWithPingWatchdog(state, later, timings)).toBe(2);
    expect(isOnline(state, later)).toBe(true);
    state.configuration.firewall.ping.enabled = true;
    expect(settleWithPingWatchdog(state, later + 10 * PING_CHECK_RESTART_MS, timings)).toBe(0);
  });

  it('answers a ping with no reply', () => {
    const entity = tenant.gateways[1]!;
    const state = createGatewayState(entity, SIMULATED_START_MS);
    const scenarios = new Scenarios({ [entity.id]: ['firewall-blocks-ping'] });
    scenarios.apply(state, SIMULATED_START_MS);
    const answer = scenarios.adjustAnswer(
      'ping',
      { state, now: SIMULATED_START_MS, timings },
      { packets_sent: 4, packets_recv: 4 },
    );
    expect(answer).toEqual({ packets_sent: 4, packets_recv: 0 });
  });
});

describe('a skewed clock', () => {
  it('puts the clock-skew gateway 7 min 12 s behind and leaves the others on time', () => {
    const scenarios = new Scenarios({ 'gw-7': ['clock-skew'], '*': ['healthy'] });
    expect(CLOCK_SKEW_MS).toBe(-432_000);
    expect(scenarios.clockOffsetOf('gw-7')).toBe(CLOCK_SKEW_MS);
    expect(scenarios.clockOffsetOf('gw-8')).toBe(0);
    expect(parseScenarioFlag(['clock-skew'])).toEqual({ '*': ['clock-skew'] });
  });
});
