import { t } from '../../shared/i18n';
import { EventEmitter } from 'node:events';
import type { RfInformation } from '../../shared/api';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import type { RfBestView, RfSampleView } from '../../shared/ipc/domains/tasks';
import { CALL_TIME_LIMITS_MS } from '../../shared/api/timeouts';
import { CommandService } from '../commands/command-service';
import { describeError } from './gateway-errors';
import type { GatewayCommander } from './types';

/** Pause between RF readings by default. */
export const RF_METER_INTERVAL_MS = 3_000;
/** Readings kept by default (about 50 minutes at the default interval). */
export const RF_METER_MAX_SAMPLES = 1_000;
/** Time limit of one RF reading: shorter than the server's command timeout so the meter stays live. */
export const RF_METER_READ_TIMEOUT_MS = CALL_TIME_LIMITS_MS.rfMeterRead;

/** The four figures an antenna is aligned by; higher is better for each (dBm or dB). */
export const RF_METRICS = ['signalStrength', 'sinr', 'rsrq', 'ecio'] as const;
/** One of the RF figures. */
export type RfMetric = (typeof RF_METRICS)[number];

/** One reading at a time (the shape the `rf-meter:sample` event carries). */
export type RfSample = RfSampleView;

/** The best value seen of each figure, and when. */
export type RfBest = RfBestView;

/** Events: each reading with the best so far, and a reading that failed (said in words; polling goes on). */
interface RfMeterEvents {
  sample: [{ sample: RfSample; best: RfBest }];
  error: [{ at: number; message: string }];
  stopped: [];
}

/** What a meter needs. */
export interface RfMeterOptions {
  commander: GatewayCommander;
  gatewayId: string;
  clock?: Clock;
  intervalMs?: number;
  maxSamples?: number;
  readTimeoutMs?: number;
}

/**
 * A live RF meter for antenna alignment: reads getWmRfInformation every few seconds, keeps the latest
 * `maxSamples` readings and the best value of signal strength, SINR, RSRQ and Ec/Io ever seen (kept even when
 * old samples drop out). A failed reading is an `error` event in words; the meter keeps polling until stopped.
 */
export class RfMeter extends EventEmitter<RfMeterEvents> {
  private readonly clock: Clock;
  private readonly series: RfSample[] = [];
  private readonly bestValues: RfBest = { signalStrength: null, sinr: null, rsrq: null, ecio: null };
  private controller: AbortController | undefined;
  private loop: Promise<void> | undefined;

  /** Its reads go through the command service (unrecorded: a meter reads every few seconds). */
  private readonly commands: CommandService;

  constructor(private readonly options: RfMeterOptions) {
    super();
    this.commands = new CommandService({ transport: options.commander });
    this.clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** The readings kept, oldest first (a copy). */
  get samples(): RfSample[] {
    return [...this.series];
  }

  /** The best value of each figure seen since the meter was made. */
  get best(): RfBest {
    return structuredClone(this.bestValues);
  }

  /** True while polling. */
  get isRunning(): boolean {
    return this.controller !== undefined;
  }

  /** Starts polling (no effect when already running). */
  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.loop = this.run(controller.signal);
  }

  /** Stops polling and resolves once the reading under way has ended. */
  async stop(): Promise<void> {
    this.controller?.abort();
    this.controller = undefined;
    await this.loop;
    this.loop = undefined;
  }

  /** Takes one reading now and records it. */
  async readOnce(signal?: AbortSignal): Promise<RfSample> {
    const rf: RfInformation = await this.commands.send({
      gatewayId: this.options.gatewayId,
      name: 'getWmRfInformation',
      body: {},
      signal,
      timeoutMs: this.options.readTimeoutMs ?? RF_METER_READ_TIMEOUT_MS,
    });
    return this.record(rf);
  }

  private record(rf: RfInformation): RfSample {
    const sample: RfSample = {
      at: this.clock.now(),
      signalStrength: rf.signalStrength,
      sinr: rf.sinr,
      rsrq: rf.rsrq,
      ecio: rf.ecio,
    };
    this.series.push(sample);
    const excess = this.series.length - (this.options.maxSamples ?? RF_METER_MAX_SAMPLES);
    if (excess > 0) this.series.splice(0, excess);
    for (const metric of RF_METRICS) {
      const best = this.bestValues[metric];
      if (!best || sample[metric] > best.value)
        this.bestValues[metric] = { value: sample[metric], at: sample.at };
    }
    this.emit('sample', { sample, best: this.best });
    return sample;
  }

  private async run(signal: AbortSignal): Promise<void> {
    // Bounded: at most a day of readings at one per millisecond-scale interval is far beyond any visit.
    for (let reading = 0; reading < 10_000_000 && !signal.aborted; reading++) {
      try {
        await this.readOnce(signal);
      } catch (error) {
        if (signal.aborted) break;
        this.emit('error', {
          at: this.clock.now(),
          message: t('wizards:rfNoReading', { reason: describeError(error) }),
        });
      }
      try {
        await this.clock.sleep(this.options.intervalMs ?? RF_METER_INTERVAL_MS, signal);
      } catch {
        break;
      }
    }
    this.emit('stopped');
  }
}
