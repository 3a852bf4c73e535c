import { z } from 'zod';
import {
  ApnSchema,
  ConnectivityTypeSchema,
  FirewallConfigurationSchema,
  gatewayCommands,
  RfInformationSchema,
} from '../../api/commands';
import { WizardNameSchema, type WizardName } from './wizards';

/** What the connectivity wizard reads: interfaces, the WAN links and the ping target. */
export const ConnectivityStateSchema = z.object({
  interfaces: gatewayCommands.getGatewayInfo.response.shape.interfaces,
  types: z.array(ConnectivityTypeSchema),
  preferredIdx: z.int(),
  fallbackIdx: z.int(),
  pingTarget: z.string(),
});
/** What the connectivity wizard reads. */
export type ConnectivityState = z.infer<typeof ConnectivityStateSchema>;

/** What the technician edits in the connectivity wizard. */
export const ConnectivityEditSchema = z.object({
  preferredIdx: z.int(),
  fallbackIdx: z.int(),
  pingTarget: z.string(),
});
/** What the technician edits in the connectivity wizard. */
export type ConnectivityEdit = z.infer<typeof ConnectivityEditSchema>;

/** Network selection: offered only on the newest BSP; otherwise hidden with the reason in words. */
export const NetworkSelectionSchema = z.discriminatedUnion('isAvailable', [
  z.object({
    isAvailable: z.literal(true),
    networks: gatewayCommands.getWmNetworkInfo.response.shape.availableNetworks,
  }),
  z.object({ isAvailable: z.literal(false), reason: z.string() }),
]);
/** Network selection. */
export type NetworkSelection = z.infer<typeof NetworkSelectionSchema>;

/** What the cellular wizard reads. */
export const CellularStateSchema = z.object({
  simStatus: z.string(),
  apnStatus: z.string(),
  homeNetwork: gatewayCommands.getWmHomeNetworkBranch.response,
  rf: RfInformationSchema,
  apns: z.array(ApnSchema),
  workingIdx: z.int(),
  pdpProfiles: z.unknown(),
  activeProfile: gatewayCommands.getWmActiveProfileParameters.response,
  callStatus: z.string(),
  networkSelection: NetworkSelectionSchema,
});
/** What the cellular wizard reads. */
export type CellularState = z.infer<typeof CellularStateSchema>;

/** An APN in the edited list: `idx` for one already on the gateway, none for a new one. */
export const ApnEntrySchema = z.object({ idx: z.int().optional(), name: z.string() });
/** An APN in the edited list. */
export type ApnEntry = z.infer<typeof ApnEntrySchema>;

/** What the technician edits in the cellular wizard: the APN list, the preferred network, the PDP profiles. */
export const CellularEditSchema = z.object({
  apns: z.array(ApnEntrySchema),
  preferredNetwork: z.object({ mcc: z.string(), mnc: z.string() }).optional(),
  pdpProfiles: z.record(z.string(), z.unknown()).optional(),
});
/** What the technician edits in the cellular wizard. */
export type CellularEdit = z.infer<typeof CellularEditSchema>;

/**
 * What each diff wizard reads (`state` of `wizard:read`) and starts the edit from (`edit`), by wizard name. The
 * services' wizards are typed with these, and the renderer's WizardState takes them from here.
 */
export const wizardShapes = {
  connectivity: { state: ConnectivityStateSchema, edit: ConnectivityEditSchema },
  cellular: { state: CellularStateSchema, edit: CellularEditSchema },
  firewall: { state: FirewallConfigurationSchema, edit: FirewallConfigurationSchema },
} as const satisfies { [Name in WizardName]: { state: z.ZodType; edit: z.ZodType } };

/** What wizard `Name` reads. */
export type WizardStateOf<Name extends WizardName> = z.infer<(typeof wizardShapes)[Name]['state']>;
/** What wizard `Name`'s edit is. */
export type WizardEditOf<Name extends WizardName> = z.infer<(typeof wizardShapes)[Name]['edit']>;

/** True when `name` is a diff wizard's name. */
export function isWizardName(name: string): name is WizardName {
  return WizardNameSchema.safeParse(name).success;
}
