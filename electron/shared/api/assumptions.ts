/**
 * Decisions on what the spec leaves open, in one place so that a real server that differs needs one
 * change here. docs/api.md lists them (npm run docs:api); a unit test keeps the two in step.
 */

/** Header carrying the access token; header names are case-insensitive, so x-Authorization is the same. */
export const AUTH_HEADER = 'X-Authorization';
/** Scheme before the access token in AUTH_HEADER. */
export const AUTH_SCHEME = 'Bearer';

/** Default token lifetimes of the spec (seconds): access 2 hours, refresh 24 hours. */
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 2 * 60 * 60;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 24 * 60 * 60;

/** Refresh this long before the access token's `exp`, so a call never leaves with a token about to expire. */
export const REFRESH_MARGIN_MS = 60_000;
/** Margin for a clock that differs from the server's: never plan a refresh less than this ahead. */
export const REFRESH_MIN_LEAD_MS = 1_000;

/** Default wait before a command to a silent gateway times out. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

/** The packageToUpgrade value that selects all packages (the spec's sample value is not shown). */
export const UPGRADE_ALL_PACKAGES = 'all';

/** One decision, for docs/api.md and the app's About page. */
export interface ApiAssumption {
  topic: string;
  decision: string;
}

/** Every decision on what the spec leaves open. */
export const API_ASSUMPTIONS: readonly ApiAssumption[] = [
  {
    topic: 'Error body',
    decision:
      'ThingsBoard convention `{ status, message, errorCode, timestamp }`; errorCode 2 general, 10 authentication failed, 11 access token expired, 15 credentials expired, 20 permission denied, 30 invalid arguments, 31 bad request params, 32 item not found, 33 too many requests.',
  },
  {
    topic: 'Access token',
    decision:
      'A JWT with claims sub (e-mail), userId, scopes (PROVIDER_USER, CUSTOMER_USER…), customerId / providerId where they apply, iat, exp. The client reads exp to refresh 60 s ahead and the ids to navigate; it never trusts them for security.',
  },
  {
    topic: 'Current user',
    decision: 'GET /api/auth/user returns the logged-in user (ThingsBoard convention).',
  },
  {
    topic: 'Refresh',
    decision:
      'POST /api/auth/token returns a new pair and the old refresh token is spent; the client never refreshes twice at once.',
  },
  {
    topic: 'Pages',
    decision:
      'Paginated lists (gateways, enhanced events) answer `{ data, totalPages, totalElements, hasNext }`.',
  },
  {
    topic: 'Timestamps',
    decision: 'Milliseconds since the epoch everywhere, startTs/endTs of events included.',
  },
  {
    topic: 'Gateway record',
    decision:
      'id (GATEWAY reference), createdTime, name, gatewayMac, gatewayModelName, isPublic, isLoggingEnabled, isUdpAllowed, isNotMqttsAllowed, status (ONLINE/OFFLINE), customerId, gatewayGroupId, providerId, bspVersion, lastSeenTime.',
  },
  {
    topic: 'Gateway search',
    decision:
      "The gateway lists accept ThingsBoard's `textSearch` query parameter (name or MAC, case-insensitive substring).",
  },
  {
    topic: 'Enhanced event record',
    decision:
      "id, startTs, endTs (null while raised), source, entityId, entityName, eventName, eventType, severity, state, ituType, details, customerId (CUSTOMER reference of the entity's owner, as ThingsBoard alarms carry it).",
  },
  {
    topic: 'Event names',
    decision:
      'The eventName filter takes the names as listed (DECODER_ with its trailing underscore); GATEWAY_HIGH_RAM_UTILISATION from the example is read as GATEWAY_HIGH_RAM_UTILIZATION. sortOrder is asc or desc; sortField a field name such as start_ts.',
  },
  {
    topic: 'Command timeout',
    decision:
      'A command to a gateway that does not answer ends in 408 with errorCode 2 after a configurable wait (10 s by default); an unknown gateway is 404.',
  },
  {
    topic: 'Command paths',
    decision:
      'The commands whose path the spec does not show are `ping`, `reboot`, `getGatewayInfo` and `upgradeSoftware`; `upgradeSoftware` with packageToUpgrade "all" upgrades every package.',
  },
  {
    topic: 'Command limits',
    decision:
      'ping sends 1 to 100 packets; a backup description is 1 to 128 characters; firewall limits are whole numbers ≥ 0; modifyWmPDP_Profiles takes any JSON object.',
  },
  {
    topic: 'Saved records',
    decision:
      'POST /api/customer/, /api/networkSettings and /api/integration answer the saved record; the app reads back with GET where one exists rather than relying on it.',
  },
  {
    topic: 'NbTrans keys',
    decision: 'adrNbTransRanges keys are data-rate indexes as decimal strings "0" to "15".',
  },
  {
    topic: 'Removed ADR fields',
    decision:
      'A network-settings body carrying adrMaxNbTrans or adrMinNbTrans is refused (400): they were removed.',
  },
  {
    topic: 'MQTT client id',
    decision:
      'clientId is at most 23 characters with mqttVersion MQTT_VERSION_3_1 and 256 otherwise (when omitted the server tries 3.1.1 first).',
  },
  {
    topic: 'Integration converter',
    decision:
      "Only the server knows a converter's version: it answers 400 for a version-1 converter and the app offers only version-2 ones.",
  },
  {
    topic: 'Performance',
    decision:
      'The spec mentions five performance endpoints but lists four; the app covers the four listed. Without order the samples come oldest first; without limit, at most 1000.',
  },
  {
    topic: 'Self-rebooting gateways',
    decision:
      'A gateway reboots itself when both WAN links fail their ping check, so connectivity and firewall changes are disruptive.',
  },
  {
    topic: 'Gateway shell',
    decision: "Gateway shells log in as root; the password is on the gateway's label.",
  },
  {
    topic: 'Serial console',
    decision: 'Settings are not published: 115200 8N1 by default, every setting editable.',
  },
  {
    topic: 'Token errors',
    decision:
      'A 401 with errorCode 11, or a refused refresh, means the session expired (the app shows its re-login dialog and keeps the view); any other 401 means not authenticated.',
  },
  {
    topic: 'Install and upgrade status',
    decision:
      'lastStatus of getLastInstallUpgradeStatus: 0 succeeded, 1 in progress, 2 failed (the spec does not give the codes).',
  },
  {
    topic: 'GPS answer',
    decision:
      'getGpsCoordinates answers latitude and longitude in degrees, optionally fix ("none", "2D", "3D" or a boolean) and satellites; no fix is read from fix, a missing coordinate or 0, 0 (the spec shows no answer).',
  },
  {
    topic: 'Ping check and firewall',
    decision:
      "A firewall that is on with ping.enabled false drops the replies of the gateway's own WAN ping check, so the gateway restarts every few minutes; a restart raises an Offline GATEWAY_SHUTDOWN_ALARM. The spec says neither.",
  },
  {
    topic: 'Antennas per model',
    decision:
      'The spec does not say how many antennas each gateway model has: the acceptance check expects 2 unless its table names the model (docs/acceptance.md).',
  },
  {
    topic: 'Backup dates',
    decision:
      "A backup date is an ISO 8601 local date-time without a zone; the app reads it as UTC and shows it in the laptop's time zone.",
  },
  {
    topic: 'Silent gateways',
    decision:
      'A 408 on a command means the gateway is offline or restarting: fleet apply marks it skipped, wizards wait for it; a network error or 5xx is a failure and is retried.',
  },
  {
    topic: 'Cellular verification',
    decision:
      'A cellular change is verified when getWmCallStatistics says CONNECTED and the active profile has an IP address other than 0.0.0.0.',
  },
  {
    topic: 'One gateway',
    decision:
      'There is no endpoint that reads one gateway: the gateway page finds it in the lists (textSearch by MAC, else pages of 1,000) and its raised alarms through the per-entity events endpoint (GATEWAY, Alarms).',
  },
  {
    topic: 'Sub-customers',
    decision:
      "No endpoint lists a customer's sub-customers (the customer record only counts them, subCustomersCount), and a customer's gateway list holds its own gateways, not its sub-customers'. The app learns customer ids from the customerId of the gateways, devices and events it reads (after sign-in it reads up to 5 pages of the account's newest events, 30 days back, until it knows as many as subCustomersCount), names each with GET /api/customer/{id} (at most 20 at a time, a failed name asked again after a minute) and keeps the list per profile and in the site pack. A technician can add one by id or by a link of the server's web UI whose path has /customers/ (or /customer/, /subCustomers/) followed by the id.",
  },
  {
    topic: 'Customers, groups and converters',
    decision:
      'The spec has no endpoint that lists customers, gateway groups, applications or converters: pickers offer the ones seen in answers (gateways, devices) or accepted before, plus a typed id.',
  },
  {
    topic: 'Reverse SSH',
    decision:
      'reverseSsh is sent with options "-o ServerAliveInterval=30 -o ServerAliveCountMax=3" and a relay port from the profile\'s range (default 20000–29999); a gateway\'s OpenSSH client needs the explicit bind address (-R 127.0.0.1:<rev>:127.0.0.1:22) for PermitListen to match.',
  },
  {
    topic: 'Integration traffic',
    decision:
      'The uplink payload the simulator forwards is assumed to be { integrationId, converterId, deviceEUI, deviceName, fPort, fCnt, data (base64), ts }.',
  },
  {
    topic: 'Checking answers',
    decision:
      'Every answer is first refused if it nests more than 64 levels deep, then checked against its schema by zod itself, which names each failing field. Unknown fields are kept.',
  },
];
