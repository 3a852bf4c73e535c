import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { CHANNELS } from '../shared/ipc/contract';
import { createRouter } from '../shared/ipc/router';
import type { FieldKitServices } from '../app';
import { isAppUrl } from './window';

/** What the IPC wiring needs: Electron's ipcMain, the services, and our window's contents once it exists. */
export interface RegisterIpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  services: FieldKitServices;
  getWebContents: () => WebContents | null;
}

/**
 * Registers one `ipcMain.handle` per contract channel, all through the shared router, and forwards every
 * contract event to our window. A call is trusted only from our window's main frame at the `app://` origin
 * (VS Code's validatedIpcMain); anything else gets FORBIDDEN. Returns a function that unregisters it all.
 */
export function registerIpc(options: RegisterIpcOptions): () => void {
  const { ipcMain, services, getWebContents } = options;
  const router = createRouter<IpcMainInvokeEvent>({
    handlers: services.handlers,
    isTrustedSender: (event) => isOurMainFrame(event, getWebContents()),
    mapError: services.mapError,
    onInternalError: services.onInternalError,
  });
  for (const channel of CHANNELS) {
    ipcMain.handle(channel, (event, input: unknown) => router.dispatch(channel, input, event));
  }
  const stopEvents = services.events.onAny((event, payload) => {
    const contents = getWebContents();
    if (contents && !contents.isDestroyed()) contents.send(event, payload);
  });
  return () => {
    stopEvents();
    for (const channel of CHANNELS) ipcMain.removeHandler(channel);
  };
}

/** True when the call comes from the main frame of our own window showing our own page. */
export function isOurMainFrame(event: IpcMainInvokeEvent, contents: WebContents | null): boolean {
  if (!contents || contents.isDestroyed() || event.sender !== contents) return false;
  const frame = event.senderFrame;
  if (!frame || frame !== contents.mainFrame) return false;
  return isAppUrl(frame.url);
}
