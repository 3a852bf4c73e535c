import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialPorts } from '../../../../electron/services/serial/serial-ports';
import {
  isFinalState,
  type TerminalState,
} from '../../../../electron/services/terminal-core/terminal-session';
import { createPortInfo, FakeBinding } from '../serial/fake-binding';

describe('isFinalState', () => {
  it('calls only a closed session final', () => {
    expect(isFinalState('closed')).toBe(true);
  });

  it('does not call a failed session final, since it can still reconnect or close', () => {
    expect(isFinalState('failed')).toBe(false);
  });

  it('does not call a live session final', () => {
    for (const state of ['connecting', 'open', 'reconnecting'] as const)
      expect(isFinalState(state)).toBe(false);
  });
});

describe('a failed serial session', () => {
  let binding: FakeBinding;
  let logsDir: string;
  let serialPorts: SerialPorts;

  beforeEach(async () => {
    binding = new FakeBinding();
    binding.ports = [createPortInfo({ path: '/dev/ttyUSB0', serialNumber: 'A10K1' })];
    logsDir = await mkdtemp(join(tmpdir(), 'terminal-session-'));
    serialPorts = new SerialPorts({ binding, logsDir });
  });

  afterEach(async () => {
    await serialPorts.closeAll();
    await rm(logsDir, { recursive: true, force: true });
  });

  async function openThenFail() {
    const session = await serialPorts.open({ path: '/dev/ttyUSB0', autoReconnect: false });
    const failed = new Promise<void>((resolve) =>
      session.on('state', (state: TerminalState) => state === 'failed' && resolve()),
    );
    binding.lastPort.unplug();
    await failed;
    return session;
  }

  it('still closes when the user closes its tab, and says it closed', async () => {
    const session = await openThenFail();
    const closed = new Promise<void>((resolve) => session.on('closed', resolve));
    await session.close();
    await closed;
    expect(session.state).toBe('closed');
  });

  it('cannot be reopened once closed', async () => {
    const session = await openThenFail();
    await session.close();
    await expect(session.reopen()).rejects.toThrow(/Only a failed session can be reopened/);
  });
});
