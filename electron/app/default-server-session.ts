import { ApiClient } from '../services/api';
import { Session } from '../services/session';
import type { ServerSessionFacts, ServerSessionPort, ServerSessionFactory } from './server-session-port';

/**
 * The real session: the typed API client and `Session` (single-flight refresh, 401 → refresh once) over the
 * profile's certificate-verifying fetch. Keeps the last known user so an expired session still says whose it was.
 */
export const createDefaultServerSession: ServerSessionFactory = ({ baseUrl, fetch, clock }) => {
  const client = new ApiClient({
    baseUrl,
    fetch: (input, init) => fetch(input, init),
    ...(clock ? { clock } : {}),
  });
  const session = new Session({ client, ...(clock ? { clock } : {}) });
  let lastFacts: ServerSessionFacts | null = null;
  const subscriptions: (() => void)[] = [];

  const port: ServerSessionPort = {
    async login(username, password) {
      await session.login(username, password);
    },
    async resume(refreshToken) {
      await session.resume(refreshToken);
    },
    async logout() {
      session.logout();
      lastFacts = null;
    },
    call(endpoint, request, options) {
      return session.call(endpoint, request, options);
    },
    sendGatewayCommand(gatewayId, command, body, options) {
      return session.command(gatewayId, command, body, options);
    },
    facts() {
      const info = session.info();
      if (info.state === 'loggedOut') return null;
      if (info.state === 'expired') return lastFacts ? { ...lastFacts, state: 'expired' } : null;
      lastFacts = {
        username: info.username ?? '',
        userId: info.userId ?? '',
        role: info.role ?? '',
        ...(info.customerId ? { customerId: info.customerId } : {}),
        ...(info.providerId ? { providerId: info.providerId } : {}),
        accessExpiresAt: info.accessExpiresAt ?? 0,
        state: info.state,
      };
      return lastFacts;
    },
    refreshToken() {
      return session.refreshToken ?? null;
    },
    onChange(listener) {
      const onEvent = () => listener();
      session.on('changed', onEvent);
      session.on('tokens', onEvent);
      const off = () => {
        session.off('changed', onEvent);
        session.off('tokens', onEvent);
      };
      subscriptions.push(off);
      return off;
    },
    dispose() {
      for (const off of subscriptions.splice(0)) off();
    },
  };
  return port;
};
