/** One event or alarm of a gateway, as the gateway page lists them. */
export interface GatewayEvent {
  id: string;
  startTs: number;
  endTs: number | null;
  eventName: string;
  eventType?: string;
  severity: string;
  state?: string | null;
  details?: unknown;
}
