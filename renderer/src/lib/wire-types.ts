// The renderer's door to electron/shared's IPC types (renderer may import shared). Types only, so no
// zod schema lands in the bundle.
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

/** Every pushed event and its payload, as the contract declares them. */
export type Events = { [E in EventName]: EventPayload<E> };

export type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayload,
  IpcErrorShape,
  Notice,
  Profile,
  ProfileDraft,
  RememberMode,
  Result,
  SessionSummary,
};
