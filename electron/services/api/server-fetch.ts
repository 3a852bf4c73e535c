import { Agent, request as httpsRequest, type AgentOptions, type RequestOptions } from 'node:https';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { Readable } from 'node:stream';
import type { Duplex } from 'node:stream';
import { normalizeFingerprint } from '../../shared/ipc/schemas';
import { t } from '../../shared/i18n';

/** The server presented a certificate that neither the system trust store nor the profile's pin accepts. */
export class CertificateUntrustedError extends Error {
  override readonly name = 'CertificateUntrustedError';
  constructor(
    readonly sha256: string,
    readonly subject: string,
    readonly reason: string,
  ) {
    super(t('errors:serverCertificateNotTrusted', { reason }));
  }
}

/** What a server fetch needs: the fingerprint the user accepted for this profile, if any. */
export interface ServerFetchOptions {
  pinnedSha256?: string;
}

type SocketCallback = (error: Error | null, socket: Duplex) => void;

/**
 * Verifies every server certificate against the system trust store and its host name, and additionally
 * accepts exactly one pinned certificate by SHA-256. Decides before any request byte is sent, because the
 * socket is handed to HTTP only after the check.
 */
class VerifyingAgent extends Agent {
  constructor(
    private readonly pinnedSha256: string | undefined,
    options: AgentOptions,
  ) {
    super(options);
  }

  override createConnection(options: RequestOptions, callback?: SocketCallback): Duplex | undefined {
    // We verify ourselves below so that a self-signed certificate can be described (fingerprint) or pinned.
    const socket: TLSSocket = tlsConnect({
      ...(options as ConnectionOptions),
      rejectUnauthorized: false,
    });
    const onError = (error: Error) => callback?.(error, socket);
    socket.once('error', onError);
    socket.once('secureConnect', () => {
      socket.off('error', onError);
      const certificate = socket.getPeerCertificate();
      const sha256 = certificate.fingerprint256 ? normalizeFingerprint(certificate.fingerprint256) : '';
      if (socket.authorized || (this.pinnedSha256 !== undefined && sha256 === this.pinnedSha256)) {
        callback?.(null, socket);
        return;
      }
      const subject = certificate.subject
        ? Object.entries(certificate.subject)
            .map(([key, value]) => `${key}=${String(value)}`)
            .join(', ')
        : '';
      socket.destroy();
      callback?.(
        new CertificateUntrustedError(
          sha256,
          subject,
          String(socket.authorizationError ?? 'fingerprint mismatch'),
        ),
        socket,
      );
    });
    return undefined;
  }
}

/**
 * A `fetch` for one profile's server. http:// goes through the platform fetch; https:// verifies the
 * certificate (system trust + host name, or the pinned fingerprint) and rejects with a TypeError whose cause
 * is a CertificateUntrustedError carrying the fingerprint and subject, so the UI can ask the user.
 */
export function createServerFetch(options: ServerFetchOptions = {}): typeof fetch {
  const pinned = options.pinnedSha256 ? normalizeFingerprint(options.pinnedSha256) : undefined;
  const agent = new VerifyingAgent(pinned, { keepAlive: true });
  return async (input, init) => {
    // The caller's own signal, never a Request's copy of it: Node lets a Request's signal go once the Request is
    // garbage collected (nodejs/node#55428), and the time limit and cancel would silently stop holding.
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const target = input instanceof Request ? input.url : String(input);
    if (new URL(target).protocol !== 'https:') return fetch(input, init);
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      request.headers.forEach((value, key) => {
        headers[key] = value;
      });
      const outgoing = httpsRequest(
        url,
        { method: request.method, headers, agent, ...(signal ? { signal } : {}) },
        (incoming) => {
          const responseHeaders = new Headers();
          for (const [key, value] of Object.entries(incoming.headers)) {
            if (Array.isArray(value)) value.forEach((item) => responseHeaders.append(key, item));
            else if (value !== undefined) responseHeaders.set(key, value);
          }
          const status = incoming.statusCode ?? 500;
          const hasBody = ![101, 204, 205, 304].includes(status) && request.method !== 'HEAD';
          resolve(
            new Response(hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : null, {
              status,
              statusText: incoming.statusMessage ?? '',
              headers: responseHeaders,
            }),
          );
          if (!hasBody) incoming.resume();
        },
      );
      outgoing.once('error', (error) => {
        if (error.name === 'AbortError') reject(signal?.reason ?? error);
        else reject(new TypeError('fetch failed', { cause: error }));
      });
      outgoing.end(body);
    });
  };
}
