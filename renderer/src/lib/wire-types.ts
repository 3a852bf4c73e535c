// The lint pattern that keeps the `electron` package out of the renderer also matches the electron/ folder's
// name; DESIGN §3 allows shared ← renderer, and this file is the renderer's one door to electron/shared (types
// only, so no zod schema lands in the bundle).
/* eslint-disable no-restricted-imports */
import type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayload,
} from '../../../electron/shared/ipc/contract';
import type { IpcErrorShape, Result } from '../../../electron/shared/ipc/result';
import type {
  Notice,
  Profile,
  ProfileDraft,
  RememberMode,
  SessionSummary,
} from '../../../electron/shared/ipc/schemas';
/* eslint-enable no-restricted-imports */

/** Every pushed event and its payload, as the contract declares them. */
export type Events = { [E in EventName]: EventPayload<E> };

export type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  IpcErrorShape,
  Notice,
  Profile,
  ProfileDraft,
  RememberMode,
  Result,
  SessionSummary,
};
