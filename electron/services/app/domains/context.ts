import type { Handler } from '../../../shared/ipc/router';
import type { Channel } from '../../../shared/ipc/contract';
import type { FieldKitServices } from '../field-kit-services';

/** What a domain's handlers may use: the application's services (sessions, profiles, events, log, data folder). */
export type DomainContext = FieldKitServices;

/** One handler per channel of a domain table. */
export type DomainHandlers<Table> = { [C in keyof Table & Channel]: Handler<C> };
