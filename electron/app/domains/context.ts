import type { Handler } from '../../shared/ipc/router';
import type { Channel } from '../../shared/ipc/contract';
import type { ServerSessionController } from '../server-session-controller';
import type { ProfileStore } from '../../services/profiles';

/** One handler per channel of a domain table. */
export type DomainHandlers<Table> = { [C in keyof Table & Channel]: Handler<C> };

/** One handler for each channel named (for channels the contract declares itself rather than a domain table). */
export type ChannelHandlers<Names extends Channel> = { [C in Names]: Handler<C> };

/** Who is signed in, and the session to call the server with (the session controller has it). */
export type SignedInSession = Pick<ServerSessionController, 'summary' | 'requireSession'>;

/** The profiles as a domain reads them: the selected one and each by id. */
export type ProfileReader = Pick<ProfileStore, 'list' | 'get'>;

/** Where a domain logs the real cause of a failure the user sees in plain words. */
export interface ErrorLog {
  error(message: string, error?: unknown): void;
}
