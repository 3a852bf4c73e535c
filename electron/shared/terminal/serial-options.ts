import { z } from 'zod';

/** Highest baud rate accepted; drivers reject what their hardware cannot do. */
export const BAUD_RATE_MAX = 20_000_000;
/** A gateway console's settings are not published: 115200 8N1 until the technician says otherwise. */
export const SERIAL_DEFAULTS = { baudRate: 115_200, dataBits: 8, stopBits: 1, parity: 'none' } as const;

/** Parity modes; mark and space work only where the driver supports them (Windows, some USB adapters). */
export const ParitySchema = z.enum(['none', 'even', 'odd', 'mark', 'space'], {
  error: 'Parity must be one of none, even, odd, mark or space',
});
/** Parity mode. */
export type Parity = z.infer<typeof ParitySchema>;

/** Flow control modes. */
export const FlowControlSchema = z.enum(['none', 'rts-cts', 'xon-xoff'], {
  error: 'Flow control must be none, rts-cts (hardware) or xon-xoff (software)',
});
/** Flow control mode. */
export type FlowControl = z.infer<typeof FlowControlSchema>;

/** What the Enter key (and each newline of a paste) sends. */
export const TransmitNewlineSchema = z.enum(['cr', 'lf', 'crlf'], {
  error: 'TX newline must be cr, lf or crlf',
});
/** TX newline mode. */
export type TransmitNewline = z.infer<typeof TransmitNewlineSchema>;

/** How received line ends are shown: untouched, a lone CR shown as CRLF, or a lone LF shown as CRLF. */
export const ReceiveNewlineSchema = z.enum(['as-is', 'cr-to-crlf', 'lf-to-crlf'], {
  error: 'RX newline must be as-is, cr-to-crlf or lf-to-crlf',
});
/** RX newline mode. */
export type ReceiveNewline = z.infer<typeof ReceiveNewlineSchema>;

/** Everything a serial session is opened with; every field but `path` has a default. */
export const SerialOpenOptionsSchema = z.object({
  path: z
    .string({ error: 'Choose a serial port or type its path' })
    .trim()
    .min(1, 'Choose a serial port or type its path')
    .max(4_096, 'The port path is too long'),
  baudRate: z
    .number({ error: 'Baud rate must be a number, e.g. 115200' })
    .int('Baud rate must be a whole number, e.g. 115200')
    .min(50, 'Baud rate must be at least 50')
    .max(BAUD_RATE_MAX, `Baud rate must be at most ${BAUD_RATE_MAX}`)
    .default(SERIAL_DEFAULTS.baudRate),
  dataBits: z
    .literal([5, 6, 7, 8], { error: 'Data bits must be 5, 6, 7 or 8' })
    .default(SERIAL_DEFAULTS.dataBits),
  stopBits: z
    .literal([1, 1.5, 2], { error: 'Stop bits must be 1, 1.5 or 2' })
    .default(SERIAL_DEFAULTS.stopBits),
  parity: ParitySchema.default(SERIAL_DEFAULTS.parity),
  flowControl: FlowControlSchema.default('none'),
  /** DTR on open: true asserts, false clears, absent leaves the line as the system opened it. */
  dtr: z.boolean({ error: 'DTR must be on (true), off (false) or left out' }).optional(),
  /** RTS on open: true asserts, false clears, absent leaves the line as the system opened it. */
  rts: z.boolean({ error: 'RTS must be on (true), off (false) or left out' }).optional(),
  txNewline: TransmitNewlineSchema.default('cr'),
  rxNewline: ReceiveNewlineSchema.default('as-is'),
  localEcho: z.boolean({ error: 'Local echo must be true or false' }).default(false),
  /** Prefix each received line with the time it started. */
  timestamps: z.boolean({ error: 'Timestamps must be true or false' }).default(false),
  /** Write a session log (on by default). */
  logging: z.boolean({ error: 'Logging must be true or false' }).default(true),
  /** Log file name pattern; tokens {gateway}, {date}, {time}, {timestamp}. */
  logPattern: z
    .string()
    .min(1, 'The log file name pattern is empty')
    .refine((pattern) => !/[/\\]/.test(pattern) && !pattern.includes('..'), {
      error: "The log file name pattern may not contain '/', '\\' or '..'",
    })
    .optional(),
  /** The gateway this console belongs to, for the tab title and the log file name. */
  gateway: z.string().trim().min(1).max(200).optional(),
  /** Reopen the port by itself when the adapter comes back. */
  autoReconnect: z.boolean({ error: 'Auto-reconnect must be true or false' }).default(true),
});
/** Serial options as the caller may give them (defaults not yet applied). */
export type SerialOpenOptionsInput = z.input<typeof SerialOpenOptionsSchema>;
/** Serial options with every default applied. */
export type SerialOpenOptions = z.infer<typeof SerialOpenOptionsSchema>;

/** Lines to paste one by one, with a pause after each for consoles that drop fast input. */
export const PasteLinesSchema = z.object({
  text: z.string().max(1_000_000, 'A paste is limited to 1,000,000 characters'),
  delayMs: z
    .number({ error: 'The delay between lines must be a number of milliseconds' })
    .int('The delay between lines must be whole milliseconds')
    .min(0, 'The delay between lines cannot be negative')
    .max(10_000, 'The delay between lines must be at most 10000 ms'),
});
/** A line-by-line paste request. */
export type PasteLines = z.infer<typeof PasteLinesSchema>;

/** Thrown when options do not validate; `message` lists every problem, one per line. */
export class SerialOptionsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'SerialOptionsError';
  }
}

/** Validates serial options and applies defaults, or throws a SerialOptionsError naming every bad field. */
export function parseSerialOpenOptions(input: unknown): SerialOpenOptions {
  const result = SerialOpenOptionsSchema.safeParse(input);
  if (result.success) return result.data;
  throw new SerialOptionsError(
    result.error.issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
    ),
  );
}

/** The usual short form of a port's framing, e.g. `115200 8N1`. */
export function formatFraming(
  options: Pick<SerialOpenOptions, 'baudRate' | 'dataBits' | 'parity' | 'stopBits'>,
): string {
  return `${options.baudRate} ${options.dataBits}${options.parity[0]!.toUpperCase()}${options.stopBits}`;
}
