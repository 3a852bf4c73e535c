/**
 * Every message of the app, by language and namespace: the JSON files under messages/ (one per language and
 * namespace, with messages/descriptions/ saying what each English message is for). A namespace is one area of the
 * app; CONTRIBUTING.md says how to add a message, a namespace or a language.
 */

import enCommon from './messages/en/common.json';
import enApp from './messages/en/app.json';
import enComponents from './messages/en/components.json';
import enGateways from './messages/en/gateways.json';
import enWizards from './messages/en/wizards.json';
import enFleet from './messages/en/fleet.json';
import enSitePack from './messages/en/sitePack.json';
import enDiagnostics from './messages/en/diagnostics.json';
import enEvents from './messages/en/events.json';
import enTelemetry from './messages/en/telemetry.json';
import enDevices from './messages/en/devices.json';
import enIntegrations from './messages/en/integrations.json';
import enNetwork from './messages/en/network.json';
import enAcceptance from './messages/en/acceptance.json';
import enTerminals from './messages/en/terminals.json';
import enReport from './messages/en/report.json';
import enDocument from './messages/en/document.json';
import enErrors from './messages/en/errors.json';
import enTriage from './messages/en/triage.json';
import enCommands from './messages/en/commands.json';
import enEnums from './messages/en/enums.json';
import enMain from './messages/en/main.json';
import frCommon from './messages/fr/common.json';
import frApp from './messages/fr/app.json';
import frComponents from './messages/fr/components.json';
import frGateways from './messages/fr/gateways.json';
import frWizards from './messages/fr/wizards.json';
import frFleet from './messages/fr/fleet.json';
import frSitePack from './messages/fr/sitePack.json';
import frDiagnostics from './messages/fr/diagnostics.json';
import frEvents from './messages/fr/events.json';
import frTelemetry from './messages/fr/telemetry.json';
import frDevices from './messages/fr/devices.json';
import frIntegrations from './messages/fr/integrations.json';
import frNetwork from './messages/fr/network.json';
import frAcceptance from './messages/fr/acceptance.json';
import frTerminals from './messages/fr/terminals.json';
import frReport from './messages/fr/report.json';
import frDocument from './messages/fr/document.json';
import frErrors from './messages/fr/errors.json';
import frTriage from './messages/fr/triage.json';
import frCommands from './messages/fr/commands.json';
import frEnums from './messages/fr/enums.json';
import frMain from './messages/fr/main.json';
import esCommon from './messages/es/common.json';
import esApp from './messages/es/app.json';
import esComponents from './messages/es/components.json';
import esGateways from './messages/es/gateways.json';
import esWizards from './messages/es/wizards.json';
import esFleet from './messages/es/fleet.json';
import esSitePack from './messages/es/sitePack.json';
import esDiagnostics from './messages/es/diagnostics.json';
import esEvents from './messages/es/events.json';
import esTelemetry from './messages/es/telemetry.json';
import esDevices from './messages/es/devices.json';
import esIntegrations from './messages/es/integrations.json';
import esNetwork from './messages/es/network.json';
import esAcceptance from './messages/es/acceptance.json';
import esTerminals from './messages/es/terminals.json';
import esReport from './messages/es/report.json';
import esDocument from './messages/es/document.json';
import esErrors from './messages/es/errors.json';
import esTriage from './messages/es/triage.json';
import esCommands from './messages/es/commands.json';
import esEnums from './messages/es/enums.json';
import esMain from './messages/es/main.json';
import deCommon from './messages/de/common.json';
import deApp from './messages/de/app.json';
import deComponents from './messages/de/components.json';
import deGateways from './messages/de/gateways.json';
import deWizards from './messages/de/wizards.json';
import deFleet from './messages/de/fleet.json';
import deSitePack from './messages/de/sitePack.json';
import deDiagnostics from './messages/de/diagnostics.json';
import deEvents from './messages/de/events.json';
import deTelemetry from './messages/de/telemetry.json';
import deDevices from './messages/de/devices.json';
import deIntegrations from './messages/de/integrations.json';
import deNetwork from './messages/de/network.json';
import deAcceptance from './messages/de/acceptance.json';
import deTerminals from './messages/de/terminals.json';
import deReport from './messages/de/report.json';
import deDocument from './messages/de/document.json';
import deErrors from './messages/de/errors.json';
import deTriage from './messages/de/triage.json';
import deCommands from './messages/de/commands.json';
import deEnums from './messages/de/enums.json';
import deMain from './messages/de/main.json';
import type { Language } from './languages';

/** The namespaces, each one area of the app (a key is written `namespace:key`). */
export const NAMESPACES = [
  'common',
  'app',
  'components',
  'gateways',
  'wizards',
  'fleet',
  'sitePack',
  'diagnostics',
  'events',
  'telemetry',
  'devices',
  'integrations',
  'network',
  'acceptance',
  'terminals',
  'report',
  'document',
  'errors',
  'triage',
  'commands',
  'enums',
  'main',
] as const;
/** One namespace of the catalogue. */
export type Namespace = (typeof NAMESPACES)[number];

/** The English catalogue: the source of every key. */
const english = {
  common: enCommon,
  app: enApp,
  components: enComponents,
  gateways: enGateways,
  wizards: enWizards,
  fleet: enFleet,
  sitePack: enSitePack,
  diagnostics: enDiagnostics,
  events: enEvents,
  telemetry: enTelemetry,
  devices: enDevices,
  integrations: enIntegrations,
  network: enNetwork,
  acceptance: enAcceptance,
  terminals: enTerminals,
  report: enReport,
  document: enDocument,
  errors: enErrors,
  triage: enTriage,
  commands: enCommands,
  enums: enEnums,
  main: enMain,
};

/** One language's messages, namespace by namespace, key by key. */
export type Messages = Readonly<Record<Namespace, Readonly<Record<string, string>>>>;

/** Every language's messages. */
export const CATALOGUE: Readonly<Record<Language, Messages>> = {
  en: english,
  fr: {
    common: frCommon,
    app: frApp,
    components: frComponents,
    gateways: frGateways,
    wizards: frWizards,
    fleet: frFleet,
    sitePack: frSitePack,
    diagnostics: frDiagnostics,
    events: frEvents,
    telemetry: frTelemetry,
    devices: frDevices,
    integrations: frIntegrations,
    network: frNetwork,
    acceptance: frAcceptance,
    terminals: frTerminals,
    report: frReport,
    document: frDocument,
    errors: frErrors,
    triage: frTriage,
    commands: frCommands,
    enums: frEnums,
    main: frMain,
  },
  es: {
    common: esCommon,
    app: esApp,
    components: esComponents,
    gateways: esGateways,
    wizards: esWizards,
    fleet: esFleet,
    sitePack: esSitePack,
    diagnostics: esDiagnostics,
    events: esEvents,
    telemetry: esTelemetry,
    devices: esDevices,
    integrations: esIntegrations,
    network: esNetwork,
    acceptance: esAcceptance,
    terminals: esTerminals,
    report: esReport,
    document: esDocument,
    errors: esErrors,
    triage: esTriage,
    commands: esCommands,
    enums: esEnums,
    main: esMain,
  },
  de: {
    common: deCommon,
    app: deApp,
    components: deComponents,
    gateways: deGateways,
    wizards: deWizards,
    fleet: deFleet,
    sitePack: deSitePack,
    diagnostics: deDiagnostics,
    events: deEvents,
    telemetry: deTelemetry,
    devices: deDevices,
    integrations: deIntegrations,
    network: deNetwork,
    acceptance: deAcceptance,
    terminals: deTerminals,
    report: deReport,
    document: deDocument,
    errors: deErrors,
    triage: deTriage,
    commands: deCommands,
    enums: deEnums,
    main: deMain,
  },
};

type PluralSuffix = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
type BaseKey<K extends string> = K extends `${infer Base}_${PluralSuffix}` ? Base : K;
/** A message's key, `namespace:key`; a plural message is named without its `_one`/`_other` ending. */
export type MessageKey = {
  [N in Namespace]: `${N}:${BaseKey<keyof (typeof english)[N] & string>}`;
}[Namespace];
