import type { ViewId } from '../lib/state/navigation.svelte';
import { t, type MessageKey } from '../lib/i18n';

/** How a view is named in the navigation and what its page will hold, in the current language. */
interface ViewWords {
  readonly label: string;
  readonly purpose: string;
}

/** Getters, so that `VIEW_TABLE[view].label` read in markup redraws when the language changes. */
function viewWords(label: MessageKey, purpose: MessageKey): ViewWords {
  return {
    get label() {
      return t(label);
    },
    get purpose() {
      return t(purpose);
    },
  };
}

/** How each view is named in the navigation and what its page will hold. */
export const VIEW_TABLE: Record<ViewId, ViewWords> = {
  gateways: viewWords('app:viewGateways', 'app:viewGatewaysPurpose'),
  devices: viewWords('app:viewDevices', 'app:viewDevicesPurpose'),
  events: viewWords('app:viewEvents', 'app:viewEventsPurpose'),
  telemetry: viewWords('app:viewTelemetry', 'app:viewTelemetryPurpose'),
  integrations: viewWords('app:viewIntegrations', 'app:viewIntegrationsPurpose'),
  commissioning: viewWords('app:viewCommissioning', 'app:viewCommissioningPurpose'),
  settings: viewWords('app:viewSettings', 'app:viewSettingsPurpose'),
  terminals: viewWords('app:viewTerminals', 'app:viewTerminalsPurpose'),
  'site-pack': viewWords('app:viewSitePack', 'app:viewSitePackPurpose'),
};

/** Views that need the server: with no session (field mode) they say so and offer to sign in. */
export const SERVER_VIEWS: ReadonlySet<ViewId> = new Set([
  'devices',
  'events',
  'telemetry',
  'integrations',
  'commissioning',
]);
