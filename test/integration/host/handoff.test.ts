import type { ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../../electron/host';
import { MemoryStore } from '../../../electron/services/credentials';
import { openThroughHandoffPage } from '../../../scripts/handoff.mjs';
import { launchBrowser, type BrowserSession } from '../../helpers/browser';

let folder: string;
let host: StartedHost | undefined;
let browser: BrowserSession | undefined;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-handoff-test-'));
});
afterEach(async () => {
  await browser?.close();
  await host?.close();
  browser = host = undefined;
  await rm(folder, { recursive: true, force: true });
});

/** An opener that only writes down the arguments it was given (what /proc/<pid>/cmdline would show). */
async function createRecordingOpener(): Promise<{ path: string; record: string }> {
  const path = join(folder, 'record-opener.sh');
  const record = join(folder, 'opener-arguments.txt');
  await writeFile(path, `#!/bin/sh\nprintf '%s\\n' "$@" > '${record}'\n`, 'utf8');
  await chmod(path, 0o700);
  return { path, record };
}

/** Resolves once the opener process has exited. */
function openerExited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

describe('npm start handing the link to a browser (scripts/handoff.mjs)', () => {
  it('puts no token on the command line: the opener gets a 0600 page in a 0700 folder', async () => {
    const url = 'http://127.0.0.1:1/?token=secret-token-abcdefghijklmnop';
    const opener = await createRecordingOpener();
    const handoff = await openThroughHandoffPage(url, { opener: opener.path, folder });
    try {
      await openerExited(handoff.child);
      const commandLine = await readFile(opener.record, 'utf8');
      expect(commandLine).not.toContain('secret-token');
      expect(commandLine).toBe(`${handoff.path}\n`);
      expect((await stat(handoff.path)).mode & 0o777).toBe(0o600);
      expect((await stat(dirname(handoff.path))).mode & 0o777).toBe(0o700);
    } finally {
      handoff.remove();
    }
    await expect(stat(handoff.path)).rejects.toThrow(/ENOENT/);
  });

  it('signs the browser that opens the page in, once: the same page cannot sign in another browser', async () => {
    const rendererDir = join(folder, 'renderer');
    await mkdir(rendererDir);
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Field Kit</title>', 'utf8');
    host = await startHost({
      dataDir: join(folder, 'data'),
      rendererDir,
      credentials: { store: new MemoryStore(), keychain: 'os' },
      log: { info: () => undefined, error: () => undefined },
    });
    const opener = await createRecordingOpener();
    const handoff = await openThroughHandoffPage(host.url, { opener: opener.path, folder });
    await openerExited(handoff.child);
    try {
      browser = await launchBrowser();
      const pageUrl = pathToFileURL(handoff.path).href;
      await browser.page.goto(pageUrl);
      // This stub page has no script to take the key out of the address bar, as the app's page does.
      await browser.page.waitForURL(new RegExp(`^http://127\\.0\\.0\\.1:${host.port}/#fieldkit-key=`));
      expect(await browser.page.title()).toBe('Field Kit');
      await browser.close();
      browser = await launchBrowser();
      await browser.page.goto(pageUrl);
      // The spent link leads to `/` without the key: the page holds none, so the host refuses its socket.
      await browser.page.waitForURL(`http://127.0.0.1:${host.port}/`);
      expect(await browser.page.evaluate(() => localStorage.getItem('fieldkit-host-key'))).toBeNull();
    } finally {
      handoff.remove();
    }
  });
});
