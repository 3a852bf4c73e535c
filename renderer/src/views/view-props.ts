// Its own module so that a view can name its props without importing view-components.ts, which imports every view.
import type { IpcClient } from '../lib/ipc';
import type { FieldModeState } from '../lib/state/field-mode.svelte';
import type { NavigationState } from '../lib/state/navigation.svelte';
import type { ProfilesState } from '../lib/state/profiles.svelte';
import type { SessionState } from '../lib/state/session.svelte';
import type { ChannelOutput } from '../lib/wire-types';

/** What the shell hands every view. A view takes the props it needs and ignores the rest. */
export interface ViewProps {
  client: IpcClient;
  session: SessionState;
  profiles: ProfilesState;
  navigation: NavigationState;
  appInfo: ChannelOutput<'app:info'> | null;
  /** Field mode: with no session, the views that need none still work (terminals, site pack, report…). */
  fieldMode: FieldModeState;
}
