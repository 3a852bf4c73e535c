/**
 * The Content-Security-Policy of every renderer page (Electron's `app://` and the browser host): our own
 * scripts only, no eval, no plugins, no framing, no remote content. `connectSources` adds the host's WebSocket.
 * Inline styles are allowed because Svelte transitions and xterm set them; inline scripts never are.
 */
export function buildContentSecurityPolicy(connectSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${connectSources.map((source) => ` ${source}`).join('')}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
