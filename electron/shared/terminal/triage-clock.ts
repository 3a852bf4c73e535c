import type { MessageKey } from '../i18n';
import { storedMessage as say, type StoredMessage } from '../visit/stored-message';
import { consoleLines, parseEpochSeconds } from './triage-parsers';
import type { TriageHealth, TriageStatus } from './triage-schemas';

/**
 * How far, in seconds, the gateway's clock may be from the laptop's before the triage names it a fault: the
 * acceptance table's default `clockSkewSeconds` (a LoRa gateway stamps its packets with this clock; a test keeps
 * the two equal). The offline acceptance card judges with the table in force instead.
 */
export const TRIAGE_CLOCK_SKEW_SECONDS = 120;

/** The gateway's clock and the laptop's when it was read, as the health panel keeps them. */
export type TriageClock = NonNullable<TriageHealth['clock']>;

/** What the clock step printed, its exit status, and the laptop's time (epoch ms) when its answer came. */
export interface ClockReading {
  output: string;
  exitCode: number | null;
  answeredAt?: number;
}

/**
 * The gateway's clock minus the laptop's in whole seconds, rounded half away from zero: positive when the gateway
 * is ahead. `date +%s` prints whole seconds, so a gateway in step reads 0 or 1 s behind.
 */
export function clockSkewSeconds(clock: TriageClock): number {
  const difference = (clock.gatewayTime - clock.laptopTime) / 1000;
  const rounded = Math.round(Math.abs(difference));
  return rounded === 0 ? 0 : Math.sign(difference) * rounded;
}

/** The sentences of a skew by its largest unit, ahead and behind. */
const SKEW_WORDS: Record<'seconds' | 'minutes' | 'hours' | 'days', Record<'ahead' | 'behind', MessageKey>> = {
  seconds: { ahead: 'triage:clockAheadSeconds', behind: 'triage:clockBehindSeconds' },
  minutes: { ahead: 'triage:clockAheadMinutes', behind: 'triage:clockBehindMinutes' },
  hours: { ahead: 'triage:clockAheadHours', behind: 'triage:clockBehindHours' },
  days: { ahead: 'triage:clockAheadDays', behind: 'triage:clockBehindDays' },
};

/**
 * A skew in words, to its two largest units ("The gateway's clock is 7 min 12 s behind this laptop's"), kept as a
 * message so the report writes it in its own language.
 */
export function clockSkewWords(skewSeconds: number): StoredMessage {
  if (skewSeconds === 0) return say('triage:clockMatches');
  const direction = skewSeconds > 0 ? 'ahead' : 'behind';
  const total = Math.abs(skewSeconds);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = total % 60;
  if (days > 0) return say(SKEW_WORDS.days[direction], { count: days, hours });
  if (hours > 0) return say(SKEW_WORDS.hours[direction], { hours, minutes });
  if (minutes > 0) return say(SKEW_WORDS.minutes[direction], { minutes, seconds });
  return say(SKEW_WORDS.seconds[direction], { seconds });
}

/** Most of a line a clock finding repeats of what the gateway printed instead of a time. */
const MAX_SAID_CHARACTERS = 80;

/**
 * The clock part of the triage: the gateway's time against the laptop's when `date +%s` answered. More than
 * `limitSeconds` apart is a fault; a step that did not answer, or printed no time, is unknown (and no clock is
 * kept).
 */
export function assessClock(
  reading: ClockReading | undefined,
  limitSeconds: number = TRIAGE_CLOCK_SKEW_SECONDS,
): { status: TriageStatus; detail: StoredMessage; clock?: TriageClock } {
  if (!reading || reading.exitCode === null || reading.answeredAt === undefined)
    return { status: 'unknown', detail: say('triage:clockNotRead') };
  const gatewayTime = reading.exitCode === 0 ? parseEpochSeconds(reading.output) : undefined;
  if (gatewayTime === undefined) {
    // What the gateway printed: console words, shown as they are (cut to one short line).
    const said = consoleLines(reading.output)
      .map((line) => line.trim())
      .find((line) => line !== '');
    return {
      status: 'unknown',
      detail: said
        ? say('triage:clockUnreadable', { said: said.slice(0, MAX_SAID_CHARACTERS) })
        : say('triage:clockSaidNothing'),
    };
  }
  const clock = { gatewayTime, laptopTime: reading.answeredAt };
  const skew = clockSkewSeconds(clock);
  return {
    status: Math.abs(skew) > limitSeconds ? 'fault' : 'ok',
    detail: clockSkewWords(skew),
    clock,
  };
}
