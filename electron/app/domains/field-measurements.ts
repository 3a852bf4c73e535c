import type { RfMeter } from '../../services/commissioning';

/** A running RF meter as the tasks domain keeps it: its gateway and how to stop listening to it. */
export interface RunningMeter {
  meter: RfMeter;
  gatewayId: string;
  off: () => void;
}

/**
 * The RF meters running in this run, by meter id (the tasks domain starts and stops them). What they measure is
 * recorded in the visit journal as it is read (MeasurementJournal); the report reads it from there.
 */
export class FieldMeasurements {
  /** The RF meters running now, by meter id. */
  readonly meters = new Map<string, RunningMeter>();
}
