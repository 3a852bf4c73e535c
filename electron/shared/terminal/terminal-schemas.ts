import { z } from 'zod';

/** A gateway's MAC as typed or listed: hex digits, optionally grouped by `:`, `-` or `.`. */
const GatewayMacSchema = z
  .string()
  .trim()
  .regex(/^[0-9A-Fa-f]{2}([:.-]?[0-9A-Fa-f]{2}){5,7}$/, 'a MAC of 6 or 8 bytes');

/** Where a terminal session is in its life; `closed` and `failed` are final until a reconnect. */
export const TerminalStateSchema = z.enum(['connecting', 'open', 'reconnecting', 'closed', 'failed']);
/** A terminal session's state. */
export type TerminalStateName = z.infer<typeof TerminalStateSchema>;

/** The transports a terminal session runs over. */
export const TerminalKindSchema = z.enum(['ssh', 'serial']);

/** A session id as main hands it out (a UUID). */
export const TerminalIdSchema = z.string().min(1).max(100);

/** A host key checked while connecting: `isNew` when it was trusted on first use just now. */
export const HostKeyNoticeSchema = z.object({
  keyId: z.string(),
  fingerprint: z.string(),
  isNew: z.boolean(),
});
/** A host key checked while connecting. */
export type HostKeyNotice = z.infer<typeof HostKeyNoticeSchema>;

/** What the renderer knows about one open terminal: never a password. */
export const TerminalInfoSchema = z.object({
  id: TerminalIdSchema,
  kind: TerminalKindSchema,
  title: z.string(),
  state: TerminalStateSchema,
  reason: z.string().optional(),
  bytesIn: z.number().int().nonnegative(),
  bytesOut: z.number().int().nonnegative(),
  /** The session log file, when logging is on (shown with a link for the site report). */
  logPath: z.string().optional(),
  /** Why the session is not logged although logging is on, or why its log stopped. */
  logProblem: z.string().optional(),
  gatewayId: z.string().optional(),
  /** Serial only: the usual short form of the framing, e.g. `115200 8N1`. */
  framing: z.string().optional(),
  /** Serial only: the port path. */
  path: z.string().optional(),
  /**
   * Serial only, and only while the port is open: DTR and RTS as last set (asserted, as the OS opens a port, when
   * left as they were). Absent while connecting, reconnecting or failed: the line state is then unknown.
   */
  signals: z.object({ dtr: z.boolean(), rts: z.boolean() }).optional(),
  /** SSH only: through the server's relay (reverse, needs the signed-in account) or to an address (direct). */
  route: z.enum(['reverse', 'direct']).optional(),
  /** SSH only: host keys checked on the last connect (relay first). */
  hostKeys: z.array(HostKeyNoticeSchema),
});
/** What the renderer knows about one open terminal. */
export type TerminalInfo = z.infer<typeof TerminalInfoSchema>;

/** A session log of this run, kept after its session closes so the site report can link it. */
export const TerminalLogSchema = z.object({
  /** The session's id. */
  id: TerminalIdSchema,
  title: z.string(),
  path: z.string(),
  gatewayId: z.string().optional(),
  /** Epoch milliseconds. */
  openedAt: z.number(),
  /** Epoch milliseconds; absent while the session is open. */
  closedAt: z.number().optional(),
});
/** A session log of this run. */
export type TerminalLogInfo = z.infer<typeof TerminalLogSchema>;

/** A serial port as listed: VID/PID, serial number, manufacturer, and whether it is the demo console. */
export const SerialPortListingSchema = z.object({
  path: z.string(),
  label: z.string(),
  manufacturer: z.string().optional(),
  serialNumber: z.string().optional(),
  vendorId: z.string().optional(),
  productId: z.string().optional(),
  isDemo: z.boolean(),
});
/** A serial port as listed. */
export type SerialPortListingInfo = z.infer<typeof SerialPortListingSchema>;

/** Output of `serial:ports`: the ports, and why the system's are missing when they could not be listed. */
export const SerialPortListSchema = z.object({
  ports: z.array(SerialPortListingSchema),
  listError: z.string().optional(),
});
/** The serial ports as listed. */
export type SerialPortListInfo = z.infer<typeof SerialPortListSchema>;

const TerminalSizeShape = {
  cols: z.number().int().min(1).max(1_000),
  rows: z.number().int().min(1).max(1_000),
};

/** Input of `ssh:open-reverse`: the relay comes from the profile and keychain, never from the renderer. */
export const OpenReverseInputSchema = z
  .object({
    gatewayId: z.string().trim().min(1, 'Choose a gateway').max(100),
    /** The gateway's name as the fleet lists it, for the tab's title (default: its id). */
    gatewayName: z.string().trim().min(1).max(200).optional(),
    /** Its MAC, shown with the name in the tab's title and the log file's name. */
    gatewayMac: GatewayMacSchema.optional(),
    ...TerminalSizeShape,
    /** Asked once when the keychain has none; kept in the keychain after a successful login. */
    rootPassword: z.string().min(1).max(1_024).optional(),
    /** Prefix each line shown (and logged) with the laptop's local time, like serial's option; default off. */
    timestamps: z.boolean({ error: 'Timestamps must be true or false' }).optional(),
  })
  .strict();
/** Input of `ssh:open-reverse`. */
export type OpenReverseInput = z.infer<typeof OpenReverseInputSchema>;

/** Input of `ssh:open-direct`: a gateway on the local network. */
export const OpenDirectInputSchema = z
  .object({
    host: z.string().trim().min(1, 'Enter the gateway address').max(253),
    port: z.number().int().min(1).max(65_535).default(22),
    username: z.string().trim().min(1).max(128).default('root'),
    password: z.string().min(1, 'Enter the password').max(1_024),
    /** The gateway at that address, when known: its host key is then pinned by gateway, not by address. */
    gatewayId: z.string().trim().min(1).max(100).optional(),
    /** Its name, for the tab's title. */
    gatewayName: z.string().trim().min(1).max(200).optional(),
    /** Its MAC, shown with the name in the tab's title and the log file's name. */
    gatewayMac: GatewayMacSchema.optional(),
    ...TerminalSizeShape,
    /** Prefix each line shown (and logged) with the laptop's local time, like serial's option; default off. */
    timestamps: z.boolean({ error: 'Timestamps must be true or false' }).optional(),
  })
  .strict();
/** Input of `ssh:open-direct`. */
export type OpenDirectInput = z.infer<typeof OpenDirectInputSchema>;

/** Input of `ssh:replace-host-key`: only after the user chose "Replace key" on the warning. */
export const ReplaceHostKeyInputSchema = z
  .object({
    keyId: z.string().min(1).max(300),
    fingerprint: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'Expected an SHA256: fingerprint'),
  })
  .strict();

/** Input naming one session. */
export const TerminalIdInputSchema = z.object({ id: TerminalIdSchema }).strict();

/** Input of `terminal:reconnect`: an SSH session may bring a new password when the gateway refused its last. */
export const TerminalReconnectInputSchema = z
  .object({ id: TerminalIdSchema, password: z.string().min(1, 'Enter the password').max(1_024).optional() })
  .strict();

/** Input of `terminal:write`: keystrokes or pasted text, sent as typed (never queued behind output). */
export const TerminalWriteInputSchema = z
  .object({ id: TerminalIdSchema, data: z.string().max(1_000_000) })
  .strict();

/** Input of `terminal:resize`. */
export const TerminalResizeInputSchema = z.object({ id: TerminalIdSchema, ...TerminalSizeShape }).strict();

/** Input of `terminal:ack`: bytes of `terminal:data` the terminal has finished writing. */
export const TerminalAckInputSchema = z
  .object({ id: TerminalIdSchema, bytes: z.number().int().min(0).max(1_000_000_000) })
  .strict();

/** Input of `serial:signals`: DTR and/or RTS to set; the other keeps its state. */
export const SerialSignalsInputSchema = z
  .object({ id: TerminalIdSchema, dtr: z.boolean().optional(), rts: z.boolean().optional() })
  .strict();

/** Input of `serial:raw-view`: while on, the session hands over the bytes as the port gave them (hex view). */
export const SerialRawViewInputSchema = z.object({ id: TerminalIdSchema, isOn: z.boolean() }).strict();

/** The largest file `serial:send-file` takes: its base64 fits one IPC message (16 MiB) with room to spare. */
export const SEND_FILE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Input of `serial:send-file`: a file for a receiver already waiting on the console (`loady`, `loadx`, `rb`, `rx`),
 * by YMODEM or XMODEM with CRC-16 (1024- or 128-byte blocks).
 */
export const SerialSendFileInputSchema = z
  .object({
    id: TerminalIdSchema,
    protocol: z.enum(['ymodem', 'xmodem-1k', 'xmodem']),
    name: z.string().trim().min(1, 'The file needs a name').max(255),
    base64: z
      .base64()
      .max(
        Math.ceil(SEND_FILE_MAX_BYTES / 3) * 4,
        `A file sent over serial is at most ${SEND_FILE_MAX_BYTES / 1024 / 1024} MiB`,
      ),
  })
  .strict();
/** Input of `serial:send-file`. */
export type SerialSendFileInput = z.infer<typeof SerialSendFileInputSchema>;

/** Payload of `serial:send-file-progress`: after each block the receiver acknowledged. */
export const SerialSendFileProgressSchema = z.object({
  id: TerminalIdSchema,
  bytesSent: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  bytesPerSecond: z.number().nonnegative(),
  /** Blocks sent again (after a NAK or no answer). */
  retries: z.number().int().nonnegative(),
});
/** Payload of `serial:send-file-progress`. */
export type SerialSendFileProgress = z.infer<typeof SerialSendFileProgressSchema>;

/** Input of `serial:paste`: text sent line by line with a pause after each line. */
export const SerialPasteInputSchema = z
  .object({
    id: TerminalIdSchema,
    text: z.string().max(1_000_000),
    delayMs: z.number().int().min(0).max(10_000),
  })
  .strict();

/**
 * Payload of `terminal:data`: output bytes in order, exactly as received (Electron's IPC clones them; the browser
 * host sends them as a binary frame, electron/shared/ipc/event-frame.ts).
 */
export const TerminalDataEventSchema = z.object({
  id: TerminalIdSchema,
  data: z.instanceof(Uint8Array),
  /** The session's totals when this was sent: bytes received from the gateway and sent to it, as on the wire. */
  bytesIn: z.number().int().nonnegative(),
  bytesOut: z.number().int().nonnegative(),
});

/**
 * A session's most recent output (the last 256 kB at most, from a line start) for a page that was not there when it
 * was sent: `data` in base64 (answers travel as JSON through the browser host), totals as of the replay.
 */
export const TerminalReplaySchema = z.object({
  id: TerminalIdSchema,
  data: z.base64(),
  bytesIn: z.number().int().nonnegative(),
  bytesOut: z.number().int().nonnegative(),
});
/** One session's replay in the answer of `terminals:attach`. */
export type TerminalReplay = z.infer<typeof TerminalReplaySchema>;

/**
 * Payload of `terminal:state`: the new state, why, when, the host key just trusted, and the session as it is now.
 * `reconnecting` means the line went away (a serial adapter unplugged) and the session, its screen and its log are
 * kept while it looks for it; `open` after `reconnecting` means it came back; `closed` is the end of the tab.
 */
export const TerminalStateEventSchema = z.object({
  id: TerminalIdSchema,
  state: TerminalStateSchema,
  reason: z.string().optional(),
  /** Epoch milliseconds when main saw the change (main always sets it): for "— reconnected 10:42:05 —". */
  at: z.number().optional(),
  hostKey: z.object({ fingerprint: z.string(), isNew: z.boolean() }).optional(),
  session: TerminalInfoSchema,
});
/** Payload of `terminal:state`. */
export type TerminalStateEvent = z.infer<typeof TerminalStateEventSchema>;

/** `details.reason` of an error a terminal channel answers, for the UI to act on (prompt, warning). */
export const TERMINAL_ERROR_REASONS = {
  rootPasswordRequired: 'ROOT_PASSWORD_REQUIRED',
  hostKeyChanged: 'HOST_KEY_CHANGED',
  tunnelTimeout: 'TUNNEL_TIMEOUT',
  relayNotConfigured: 'RELAY_NOT_CONFIGURED',
} as const;

/** Details of a HOST_KEY_CHANGED error: both fingerprints and what the key is pinned under. */
export const HostKeyChangedDetailsSchema = z.object({
  reason: z.literal('HOST_KEY_CHANGED'),
  keyId: z.string(),
  expected: z.string(),
  actual: z.string(),
});
