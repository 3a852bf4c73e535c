import type { ViewId } from '../lib/state/navigation.svelte';

/** How each view is named in the navigation and what its page will hold. */
export const VIEW_TABLE: Record<ViewId, { label: string; purpose: string }> = {
  gateways: {
    label: 'Gateways',
    purpose:
      'Your gateways by customer, gateway group or provider: sortable, searchable by name or MAC, with status ' +
      'badges. Each gateway gets a page with its alarms, health, telemetry and a command console.',
  },
  devices: {
    label: 'Devices',
    purpose:
      'The devices of a customer or sub-customer with their last activity, filtered to all, online or offline.',
  },
  events: {
    label: 'Events',
    purpose:
      'Enhanced events — alarms, faults, events and offline notices — for gateways, devices and integrations, ' +
      'with every filter the server offers.',
  },
  telemetry: {
    label: 'Telemetry',
    purpose:
      'Performance charts for one gateway, or aggregated by customer, provider or gateway group, with time ' +
      'ranges, zoom and CSV or PNG export.',
  },
  integrations: {
    label: 'Integrations',
    purpose:
      'MQTT_V2 and HTTP_V2 integrations that forward device uplinks, with a connection test from this laptop.',
  },
  commissioning: {
    label: 'Fleet & report',
    purpose:
      'Apply one change to many gateways at once, and export the site report of this visit as HTML or PDF.',
  },
  settings: {
    label: 'Settings',
    purpose: 'Server profiles and how this app runs.',
  },
  terminals: {
    label: 'Terminals',
    purpose:
      'Shells on your gateways: through a reverse SSH tunnel the server opens, or over a USB serial console ' +
      'cable when there is no network.',
  },
  'site-pack': {
    label: 'Site pack',
    purpose:
      'What this laptop keeps about your gateways for a site with no network: prepared while online, searched ' +
      'and shown read-only offline.',
  },
};

/** Views that need the server: with no session (field mode) they say so and offer to sign in. */
export const SERVER_VIEWS: ReadonlySet<ViewId> = new Set([
  'devices',
  'events',
  'telemetry',
  'integrations',
  'commissioning',
]);
