import { describe, expect, it } from 'vitest';
import { TerminalSessionBase } from '../../../../electron/services/terminal-core/terminal-session-base';
import type { TerminalState } from '../../../../electron/services/terminal-core/terminal-session';

/** A session whose producer is a list of calls, fed by `produce`. */
class RecordingSession extends TerminalSessionBase {
  readonly kind = 'serial' as const;
  readonly title = 'recording';
  readonly producer: string[] = [];

  write(data: string | Uint8Array): void {
    this.countOut(typeof data === 'string' ? Buffer.byteLength(data) : data.length);
  }

  resize(): void {}

  async close(): Promise<void> {
    this.setState('closed', 'Closed by the user');
  }

  open(): void {
    this.setState('open');
  }

  produce(chunk: Uint8Array): void {
    this.countIn(chunk.length);
    this.handOver(chunk);
  }

  protected override pauseProducer(): void {
    this.producer.push('pause');
  }

  protected override resumeProducer(): void {
    this.producer.push('resume');
  }
}

describe('TerminalSessionBase', () => {
  it('emits each state change with its reason', async () => {
    const session = new RecordingSession({});
    const states: [TerminalState, string | undefined][] = [];
    session.on('state', (state: TerminalState, reason?: string) => states.push([state, reason]));
    session.open();
    await session.close();
    expect(states).toEqual([
      ['open', undefined],
      ['closed', 'Closed by the user'],
    ]);
    expect(session.state).toBe('closed');
  });

  it('pauses its producer at the high watermark and resumes it once the renderer acknowledges', () => {
    const session = new RecordingSession({ highWatermark: 10, lowWatermark: 4 });
    const received: number[] = [];
    session.on('data', (chunk: Uint8Array) => received.push(chunk.length));
    session.produce(new Uint8Array(6));
    session.produce(new Uint8Array(6));
    expect(session.producer).toEqual(['pause']);
    expect(session.unacknowledged).toBe(12);
    session.acknowledge(8);
    expect(session.producer).toEqual(['pause', 'resume']);
    expect(received).toEqual([6, 6]);
  });

  it('counts the bytes in and out and has no log until one is given', () => {
    const session = new RecordingSession({});
    session.on('data', () => undefined);
    session.produce(new Uint8Array(5));
    session.write('abc');
    expect([session.bytesIn, session.bytesOut]).toEqual([5, 3]);
    expect(session.logPath).toBeUndefined();
  });
});
