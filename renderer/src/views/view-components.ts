import type { Component } from 'svelte';
import type { IpcClient } from '../lib/ipc';
import type { FieldModeState } from '../lib/state/field-mode.svelte';
import type { NavigationState, ViewId } from '../lib/state/navigation.svelte';
import type { ProfilesState } from '../lib/state/profiles.svelte';
import type { SessionState } from '../lib/state/session.svelte';
import type { ChannelOutput } from '../lib/wire-types';
import SettingsView from './SettingsView.svelte';
import CommissioningView from './wizards/CommissioningView.svelte';
import IntegrationsView from './integrations/IntegrationsView.svelte';
import GatewaysView from './gateways/GatewaysView.svelte';
import TerminalsView from './terminals/TerminalsView.svelte';
import DevicesView from './devices/DevicesView.svelte';
import EventsView from './events/EventsView.svelte';
import TelemetryView from './telemetry/TelemetryView.svelte';
import SitePackView from './site-pack/SitePackView.svelte';

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

/**
 * The component of each view that has one; the others show their placeholder (view-table.ts). One line per
 * view, so features land side by side.
 */
export const VIEW_COMPONENTS: Partial<Record<ViewId, Component<ViewProps>>> = {
  settings: SettingsView as Component<ViewProps>,
  integrations: IntegrationsView as Component<ViewProps>,
  gateways: GatewaysView as Component<ViewProps>,
  terminals: TerminalsView as Component<ViewProps>,
  devices: DevicesView as Component<ViewProps>,
  events: EventsView as Component<ViewProps>,
  telemetry: TelemetryView as Component<ViewProps>,
  commissioning: CommissioningView as Component<ViewProps>,
  'site-pack': SitePackView as Component<ViewProps>,
};
