import type { Component } from 'svelte';
import type { ViewId } from '../lib/state/navigation.svelte';
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
 * The component of each view that has one (it takes no props: the client and the app's state come from the
 * context, lib/context.ts); the others show their placeholder (view-table.ts). One line per
 * view, so features land side by side.
 */
export const VIEW_COMPONENTS: Partial<Record<ViewId, Component>> = {
  settings: SettingsView,
  integrations: IntegrationsView,
  gateways: GatewaysView,
  terminals: TerminalsView,
  devices: DevicesView,
  events: EventsView,
  telemetry: TelemetryView,
  commissioning: CommissioningView,
  'site-pack': SitePackView,
};
