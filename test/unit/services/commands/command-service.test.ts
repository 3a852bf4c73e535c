import { describe, expect, it } from 'vitest';
import type { CommandName, CommandResponse } from '../../../../electron/shared/api';
import { CALL_TIME_LIMITS_MS } from '../../../../electron/shared/api/timeouts';
import { MemoryAuditSink, type AuditEntry, type AuditSink } from '../../../../electron/services/audit';
import {
  CommandService,
  ConfirmationRequiredError,
  RecordUnavailableError,
  type CommandCallOptions,
  type GatewayCommander,
} from '../../../../electron/services/commands';

const CALLER = { profileId: 'demo', user: 'tech@example.com' };

/** A gateway that answers `{}` and notes, for each command, its options and what the audit held when it left. */
class RecordingGateway implements GatewayCommander {
  readonly sent: Array<{ name: string; options: CommandCallOptions; auditAtSend: AuditEntry[] }> = [];
  constructor(private readonly audit: MemoryAuditSink) {}
  async command<Name extends CommandName>(
    _gatewayId: string,
    name: Name,
    _request?: unknown,
    options: CommandCallOptions = {},
  ): Promise<CommandResponse<Name>> {
    this.sent.push({ name, options, auditAtSend: [...this.audit.entries] });
    return {} as CommandResponse<Name>;
  }
}

describe('CommandService', () => {
  it('records a change as sent before it leaves, then its outcome in its place', async () => {
    const audit = new MemoryAuditSink();
    const gateway = new RecordingGateway(audit);
    const commands = new CommandService({ transport: gateway, audit });
    await commands.send({
      gatewayId: 'gw-1',
      name: 'setPreferredPingIpAddress',
      body: { ipAddr: '8.8.8.8' },
      caller: CALLER,
    });
    expect(gateway.sent[0]?.auditAtSend).toMatchObject([
      { name: 'setPreferredPingIpAddress', outcome: 'sent' },
    ]);
    expect(audit.entries).toMatchObject([
      { name: 'setPreferredPingIpAddress', outcome: 'ok', gatewayId: 'gw-1' },
    ]);
  });

  it('sends nothing when the audit log cannot record the change', async () => {
    const refusing: AuditSink = { append: () => Promise.reject(new Error('disk full')) };
    const gateway = new RecordingGateway(new MemoryAuditSink());
    const commands = new CommandService({ transport: gateway, audit: refusing });
    await expect(
      commands.send({
        gatewayId: 'gw-1',
        name: 'setPreferredPingIpAddress',
        body: { ipAddr: '8.8.8.8' },
        caller: CALLER,
      }),
    ).rejects.toThrow(RecordUnavailableError);
    expect(gateway.sent).toEqual([]);
  });

  it('hands the transport the caller signal and the command time limit of the table', async () => {
    const gateway = new RecordingGateway(new MemoryAuditSink());
    const commands = new CommandService({ transport: gateway });
    const controller = new AbortController();
    await commands.send({ gatewayId: 'gw-1', name: 'getBspStatus', signal: controller.signal });
    await commands.send({ gatewayId: 'gw-1', name: 'getBspStatus', timeoutMs: 1_234 });
    expect(gateway.sent.map((sent) => sent.options)).toEqual([
      { signal: controller.signal, timeoutMs: CALL_TIME_LIMITS_MS.command },
      { signal: undefined, timeoutMs: 1_234 },
    ]);
  });

  it('refuses a guarded disruptive command without its confirmation, sending nothing', async () => {
    const gateway = new RecordingGateway(new MemoryAuditSink());
    const commands = new CommandService({ transport: gateway });
    await expect(commands.send({ gatewayId: 'gw-1', name: 'reboot', body: {}, guard: {} })).rejects.toThrow(
      ConfirmationRequiredError,
    );
    expect(gateway.sent).toEqual([]);
  });

  it('feeds a second recorder (a visit journal) the same entries as the audit log', async () => {
    const audit = new MemoryAuditSink();
    const journal = new MemoryAuditSink();
    const commands = new CommandService({ transport: new RecordingGateway(audit), audit, journal });
    await commands.send({
      gatewayId: 'gw-1',
      name: 'setPreferredPingIpAddress',
      body: { ipAddr: '8.8.8.8' },
      caller: CALLER,
    });
    await commands.send({ gatewayId: 'gw-1', name: 'getBspStatus', caller: CALLER });
    expect(journal.entries.map(({ name, outcome }) => ({ name, outcome }))).toEqual(
      audit.entries.map(({ name, outcome }) => ({ name, outcome })),
    );
  });
  it('has the change on the journal too before it leaves', async () => {
    const audit = new MemoryAuditSink();
    const written = new MemoryAuditSink();
    // Like a disk: an append is done only a turn of the event loop later.
    const journal: AuditSink = {
      append: async (entry) => {
        await new Promise((resolve) => setImmediate(resolve));
        return written.append(entry);
      },
    };
    const journalAtSend: AuditEntry[][] = [];
    const transport: GatewayCommander = {
      command: async <Name extends CommandName>() => {
        journalAtSend.push([...written.entries]);
        return {} as CommandResponse<Name>;
      },
    };
    const commands = new CommandService({ transport, audit, journal });
    await commands.send({
      gatewayId: 'gw-1',
      name: 'setPreferredPingIpAddress',
      body: { ipAddr: '8.8.8.8' },
      caller: CALLER,
    });
    expect(journalAtSend).toMatchObject([[{ name: 'setPreferredPingIpAddress', outcome: 'sent' }]]);
  });

  it('sends nothing when the visit journal cannot record the change', async () => {
    const audit = new MemoryAuditSink();
    const refusing: AuditSink = { append: () => Promise.reject(new Error('disk full')) };
    const gateway = new RecordingGateway(audit);
    const commands = new CommandService({ transport: gateway, audit, journal: refusing });
    await expect(
      commands.send({
        gatewayId: 'gw-1',
        name: 'setPreferredPingIpAddress',
        body: { ipAddr: '8.8.8.8' },
        caller: CALLER,
      }),
    ).rejects.toThrow('Nothing was sent: the visit journal could not be written (disk full)');
    expect(gateway.sent).toEqual([]);
    // Nothing left the laptop, so the audit log holds no change of it (none to read as unknown later).
    expect(audit.entries).toEqual([]);
  });
});
