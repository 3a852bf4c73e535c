import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../../electron/shared/i18n';
import { parseSerialOpenOptions } from '../../../../electron/services/serial/options';
import { SerialSession } from '../../../../electron/services/serial/serial-session';
import { describeOpenError } from '../../../../electron/services/serial/serial-port-words';
import { sendFile, type FileTransferLine } from '../../../../electron/services/serial/ymodem';
import { HostKeyChangedError } from '../../../../electron/services/ssh/host-key-errors';
import { ManualClock } from '../../../helpers/manual-clock';
import { createPortInfo, FakeBinding } from './fake-binding';

// Main writes its serial and SSH messages in the language the screen shows (app:language moves it): here French,
// with the narrow no-break space French puts before a colon.

const ADAPTER = { path: '/dev/ttyUSB0', serialNumber: 'A10K1', vendorId: '0403', productId: '6001' };
const NARROW = '\u202f';

beforeEach(() => setLanguage('fr'));
afterEach(() => setLanguage('en'));

/** Lets the promises a fired timer started run to their next wait. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('serial and SSH messages in French', () => {
  it('says in French that the adapter went away and that the session reopened once it was back', async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 10, 0, 0));
    const binding = new FakeBinding();
    binding.ports = [createPortInfo(ADAPTER)];
    const session = new SerialSession(parseSerialOpenOptions({ path: ADAPTER.path }), ADAPTER, {
      binding,
      clock,
    });
    await session.start();
    const states: string[] = [];
    session.on('state', (state, reason) => states.push(`${state}: ${reason ?? ''}`));
    try {
      binding.ports = [];
      binding.lastPort.unplug();
      await settle();
      binding.ports = [createPortInfo(ADAPTER)];
      for (let step = 0; step < 10 && session.state !== 'open'; step += 1) {
        clock.advance(250);
        await settle();
      }
      expect(states).toEqual([
        `reconnecting: Déconnecté${NARROW}: l'adaptateur sur /dev/ttyUSB0 a disparu (débranché, ou la passerelle ` +
          `n'est plus alimentée${NARROW}; EIO: i/o error, read)`,
        'open: Reconnecté sur /dev/ttyUSB0',
      ]);
    } finally {
      await session.close();
    }
  });

  it('says in French why a port does not open, keeping the path and the Linux group name', () => {
    expect(describeOpenError('/dev/ttyUSB0', new Error('Error: Permission denied, cannot open'))).toBe(
      `Impossible d'ouvrir /dev/ttyUSB0${NARROW}: permission refusée (sous Linux, ajoutez votre utilisateur au ` +
        'groupe dialout)',
    );
  });

  it('says in French that the receiver of a YMODEM transfer never asked for the file', async () => {
    const clock = new ManualClock();
    const line: FileTransferLine = { write: async () => undefined, onReceive: () => () => undefined };
    const sending = sendFile(line, {
      protocol: 'ymodem',
      name: 'firmware.bin',
      data: new Uint8Array([1, 2, 3]),
      clock,
      startTimeoutMs: 30_000,
    });
    const outcome = expect(sending).rejects.toThrow(
      `Pas de réponse de l'autre côté${NARROW}: il n'a pas demandé le fichier en 30 s (tapez d'abord loady, ` +
        'loadx, rb ou rx)',
    );
    await Promise.resolve();
    clock.advance(30_000);
    await outcome;
  });

  it('warns in French that an SSH host key changed, with both fingerprints as they are', () => {
    const error = new HostKeyChangedError('gateway:gw-7', 'SHA256:old', 'SHA256:new');
    expect(error.message).toContain(
      `La clé d'hôte de gateway:gw-7 a changé${NARROW}: attendue SHA256:old, reçue SHA256:new.`,
    );
    expect(error.message).toContain("quelqu'un intercepte peut-être la connexion.");
  });
});
