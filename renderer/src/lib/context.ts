import { createContext } from 'svelte';
import type { IpcClient } from './ipc';
import type { ConnectionState } from './state/connection.svelte';
import type { FieldModeState } from './state/field-mode.svelte';
import type { NavigationState } from './state/navigation.svelte';
import type { NoticesState } from './state/notices.svelte';
import type { ProfilesState } from './state/profiles.svelte';
import type { SessionState } from './state/session.svelte';
import type { ChannelOutput } from './wire-types';

// What the whole app shares, set once by App.svelte and read by any component below it, so that no component
// passes the client or a state class on to its children. Each getter must be called while a component
// initialises (its <script>, not an event handler) and throws outside App's tree.

/** The link to main: `const client = getClient()` in a component, then `client.invoke(…)`. */
export const [getClient, setClient] = createContext<IpcClient>();

/** The signed-in session (null summary in field mode), its expiry and sign-out. */
export const [getSession, setSession] = createContext<SessionState>();

/** The server profiles and the chosen one. */
export const [getProfiles, setProfiles] = createContext<ProfilesState>();

/** The view on screen and its path (the address's hash). */
export const [getNavigation, setNavigation] = createContext<NavigationState>();

/** Field mode (the shell with no session) and how the server answers. */
export const [getFieldMode, setFieldMode] = createContext<FieldModeState>();

/** The state of the link to main (the banner while it reconnects). */
export const [getConnection, setConnection] = createContext<ConnectionState>();

/** The notices main sends (a cache write failed, a session resumed…). */
export const [getNotices, setNotices] = createContext<NoticesState>();

/** What main says about itself (`app:info`): `current` is null until it answered, then its version and keychain. */
export interface AppInfo {
  readonly current: ChannelOutput<'app:info'> | null;
}

/** What main says about itself, read through `current` so that its arrival redraws the readers. */
export const [getAppInfo, setAppInfo] = createContext<AppInfo>();
