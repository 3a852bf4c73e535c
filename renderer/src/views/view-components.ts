import type { Component } from 'svelte';
import type { ViewId } from '../lib/state/navigation.svelte';
import type { ViewProps } from './view-props';
import SettingsView from './SettingsView.svelte';
import CommissioningView from './wizards/CommissioningView.svelte';
import IntegrationsView from './integrations/IntegrationsView.svelte';
import GatewaysView from './gateways/GatewaysView.svelte';
import TerminalsView from './terminals/TerminalsView.svelte';
import DevicesView from './devices/DevicesView.svelte';
import EventsView from './events/EventsView.svelte';
import TelemetryView from './telemetry/TelemetryView.svelte';
import SitePackView from './site-pack/SitePackView.svelte';

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
