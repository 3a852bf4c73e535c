import type { RfMeter } from '../../services/commissioning';
import type { PingMeasurement, RfMeasurement } from '../../services/reports';

/** Measurements kept for the site report, of each kind. */
const MAX_MEASUREMENTS = 500;

/** A running RF meter as the tasks domain keeps it: its gateway and how to stop listening to it. */
export interface RunningMeter {
  meter: RfMeter;
  gatewayId: string;
  off: () => void;
}

/**
 * The pings and RF series measured in this run, each with who was signed in when it was measured: the tasks
 * domain records them, the reports domain reads them (a report shows only its user's). The running RF meters
 * are kept here too, so that a report taken while one runs includes its samples so far.
 */
export class FieldMeasurements {
  /** The RF meters running now, by meter id. */
  readonly meters = new Map<string, RunningMeter>();
  private readonly pings: PingMeasurement[] = [];
  private readonly rfSeries: RfMeasurement[] = [];
  private readonly measuredBy = new WeakMap<object, string>();

  /** @param signedInUser the user signed in now (none in field mode: the measurement is nobody's). */
  constructor(private readonly signedInUser: () => string | undefined) {}

  /** Keeps a ping's outcome, the oldest forgotten beyond the cap. */
  addPing(ping: PingMeasurement): void {
    this.noteMeasurer(ping);
    this.pings.push(ping);
    if (this.pings.length > MAX_MEASUREMENTS) this.pings.shift();
  }

  /** Keeps what an RF meter has measured so far (nothing when it has no sample). */
  addRfSeries(gatewayId: string, meter: RfMeter): void {
    if (meter.samples.length === 0) return;
    const series = { gatewayId, samples: meter.samples, best: meter.best };
    this.noteMeasurer(series);
    this.rfSeries.push(series);
    if (this.rfSeries.length > MAX_MEASUREMENTS) this.rfSeries.shift();
  }

  /**
   * The measurements `owner` made that `inSpan` keeps (at a time, of a gateway), running meters included; RF
   * series keep only their samples in the span.
   */
  forReport(
    owner: string | undefined,
    inSpan: (at: number, gatewayId?: string) => boolean,
  ): { pings: PingMeasurement[]; rf: RfMeasurement[] } {
    for (const { meter, gatewayId } of this.meters.values()) this.addRfSeries(gatewayId, meter);
    const isOwn = (measurement: object) => owner !== undefined && this.measuredBy.get(measurement) === owner;
    return {
      pings: this.pings.filter((ping) => isOwn(ping) && inSpan(ping.at, ping.gatewayId)),
      rf: this.rfSeries
        .filter(isOwn)
        .map((series) => ({ ...series, samples: series.samples.filter((sample) => inSpan(sample.at)) }))
        .filter((series) => series.samples.length > 0 && inSpan(series.samples[0]!.at, series.gatewayId)),
    };
  }

  private noteMeasurer(measurement: object): void {
    const username = this.signedInUser();
    if (username !== undefined) this.measuredBy.set(measurement, username);
  }
}
