import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimeoutError } from '../../../electron/services/api';
import { CommandService } from '../../../electron/services/commands';
import { openCredentialStore, type OpenedCredentialStore } from '../../../electron/services/credentials';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import type { HeldCommand } from '../../../simulator/server';
import { startAppServices } from '../credentials/app-services';
import { PROVIDER, startSimulatorSession } from './simulator-session';

/** Holds every command's answer until its client goes away, and hands each held command to the test. */
function holdAnswers() {
  const waiting: Array<(command: HeldCommand) => void> = [];
  const held: HeldCommand[] = [];
  return {
    hook: (command: HeldCommand) => {
      held.push(command);
      waiting.shift()?.(command);
      return new Promise<void>((resolve) => command.signal.addEventListener('abort', () => resolve()));
    },
    /** The next command the simulator holds (one already held and not yet taken comes first). */
    next: (taken: number) =>
      new Promise<HeldCommand>((resolve) => {
        const already = held[taken];
        if (already) resolve(already);
        else waiting.push(resolve);
      }),
  };
}

/** Resolves when the simulator sees the client abort the request. */
const abortSeen = (command: HeldCommand) =>
  new Promise<void>((resolve) => {
    if (command.signal.aborted) resolve();
    else command.signal.addEventListener('abort', () => resolve(), { once: true });
  });

describe('cancel and time limits reach the wire', () => {
  let simulator: RunningSimulator | undefined;
  let folder: string;
  let credentials: OpenedCredentialStore;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'fieldkit-cancel-wire-'));
    credentials = await openCredentialStore();
  });
  afterAll(async () => {
    await simulator?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('aborts the HTTP request of a wizard cancelled during a slow command', async () => {
    const answers = holdAnswers();
    simulator = await startSimulator({ port: 0, offlineFraction: 0, beforeCommandAnswer: answers.hook });
    const { dispatch, services } = await startAppServices(folder, credentials);
    try {
      const profile = (await dispatch('profiles:save', { name: 'Simulator', baseUrl: simulator.url })) as {
        value: { id: string };
      };
      await dispatch('session:login', { profileId: profile.value.id, ...PROVIDER, remember: 'none' });
      const gatewayId = simulator.fixture.gateways[0]!.id;
      const started = (await dispatch('wizard:start', { wizard: 'connectivity', gatewayId })) as {
        value: { runId: string };
      };
      const reading = dispatch('wizard:read', { runId: started.value.runId });
      const held = await answers.next(0);
      expect(held.gatewayId).toBe(gatewayId);

      await dispatch('call:cancel', { callId: started.value.runId });
      await abortSeen(held);
      expect(held.signal.aborted).toBe(true);
      expect(await reading).toMatchObject({ ok: false });
    } finally {
      await services.close();
      await simulator.close();
      simulator = undefined;
    }
  });

  it('aborts a command past its time limit at that limit, on the wire', async () => {
    const answers = holdAnswers();
    const started = await startSimulatorSession({ offlineFraction: 0, beforeCommandAnswer: answers.hook });
    simulator = started.simulator;
    const commands = new CommandService({ transport: started.session });
    const gatewayId = simulator.fixture.gateways[0]!.id;

    const sending = commands.send({ gatewayId, name: 'getBspStatus', timeoutMs: 300 });
    const held = await answers.next(0);
    const error = await sending.then(
      () => null,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(300);
    expect((error as TimeoutError).message).toMatch(/within 0\.3 s/);
    await abortSeen(held);
    expect(held.signal.aborted).toBe(true);
  });
});
