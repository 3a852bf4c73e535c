import type { Page } from 'playwright-core';
import WebSocket from 'ws';

/**
 * What the terminal flood checks need from a page: run a function in it, type, wait for a condition. Both a
 * Playwright page (playwrightPage) and a bare DevTools connection (CdpPage) provide it.
 */
export interface ScriptablePage {
  /** Runs `script(argument)` in the page; resolves with its (awaited, JSON-serialisable) result. */
  evaluate<R, A = undefined>(script: (argument: A) => R | Promise<R>, argument?: A): Promise<R>;
  /** Types text into the focused element as key presses would (`\r` is Enter). */
  type(text: string): Promise<void>;
  /** Polls `predicate(argument)` in the page until it is truthy; rejects after `timeoutMs`. */
  waitFor<A>(
    predicate: (argument: A) => boolean,
    argument: A,
    options: { pollingMs: number; timeoutMs: number },
  ): Promise<void>;
}

/** The Playwright page as a ScriptablePage. */
export function playwrightPage(page: Page): ScriptablePage {
  return {
    // Playwright types the argument through its own Unboxed<Arg>, which no generic caller's type can meet.
    // eslint-disable-next-line no-restricted-syntax -- a library typing gap, as in the source's allow list
    evaluate: (script, argument) => page.evaluate(script, argument as never),
    async type(text) {
      const parts = text.split('\r');
      for (const [index, part] of parts.entries()) {
        if (part) await page.keyboard.type(part);
        if (index < parts.length - 1) await page.keyboard.press('Enter');
      }
    },
    async waitFor(predicate, argument, options) {
      await page.waitForFunction(predicate as (argument: unknown) => boolean, argument as unknown, {
        polling: options.pollingMs,
        timeout: options.timeoutMs,
      });
    },
  };
}

interface CdpAnswer {
  id?: number;
  result?: {
    result?: { value?: unknown };
    exceptionDetails?: { text?: string; exception?: { description?: string } };
  };
  error?: { message: string };
}

/**
 * A page driven over a bare DevTools WebSocket with no domain enabled. Playwright enables the Network domain,
 * which copies every WebSocket frame the page receives — base64, through Chromium's browser process and the test
 * process — so a benchmark of a WebSocket-fed page measures Playwright as much as the page. This speaks only
 * Runtime.evaluate and Input.*, which add nothing per frame.
 */
export class CdpPage implements ScriptablePage {
  readonly #socket: WebSocket;
  readonly #pending = new Map<number, (answer: CdpAnswer) => void>();
  readonly #listeners = new Map<string, Set<(params: unknown) => void>>();
  #nextId = 1;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data) => {
      const answer = JSON.parse(String(data)) as CdpAnswer & { method?: string; params?: unknown };
      if (answer.method)
        for (const listener of this.#listeners.get(answer.method) ?? []) listener(answer.params);
      if (answer.id === undefined) return;
      this.#pending.get(answer.id)?.(answer);
      this.#pending.delete(answer.id);
    });
    socket.on('close', () => {
      for (const resolve of this.#pending.values())
        resolve({ error: { message: 'DevTools connection closed' } });
      this.#pending.clear();
    });
  }

  /** Connects to the page target whose URL starts with `urlPrefix`, on a Chromium started with a debugging port. */
  static async connect(debuggingPort: number, urlPrefix: string): Promise<CdpPage> {
    const response = await fetch(`http://127.0.0.1:${debuggingPort}/json/list`);
    const targets = (await response.json()) as Array<{
      type: string;
      url: string;
      webSocketDebuggerUrl: string;
    }>;
    const target = targets.find(
      (candidate) => candidate.type === 'page' && candidate.url.startsWith(urlPrefix),
    );
    if (!target)
      throw new Error(`no page at ${urlPrefix} among ${targets.map((entry) => entry.url).join(', ')}`);
    const socket = new WebSocket(target.webSocketDebuggerUrl, { perMessageDeflate: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new CdpPage(socket);
  }

  async evaluate<R, A = undefined>(script: (argument: A) => R | Promise<R>, argument?: A): Promise<R> {
    const answer = await this.#send('Runtime.evaluate', {
      expression: `(${script.toString()})(${argument === undefined ? '' : JSON.stringify(argument)})`,
      awaitPromise: true,
      returnByValue: true,
    });
    const failure = answer.result?.exceptionDetails;
    if (failure) throw new Error(`page script failed: ${failure.exception?.description ?? failure.text}`);
    return answer.result?.result?.value as R;
  }

  async type(text: string): Promise<void> {
    const parts = text.split('\r');
    for (const [index, part] of parts.entries()) {
      if (part) await this.#send('Input.insertText', { text: part });
      if (index < parts.length - 1) {
        const enter = { key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 };
        await this.#send('Input.dispatchKeyEvent', { type: 'keyDown', text: '\r', ...enter });
        await this.#send('Input.dispatchKeyEvent', { type: 'keyUp', ...enter });
      }
    }
  }

  async waitFor<A>(
    predicate: (argument: A) => boolean,
    argument: A,
    options: { pollingMs: number; timeoutMs: number },
  ): Promise<void> {
    const deadline = Date.now() + options.timeoutMs;
    while (!(await this.evaluate(predicate, argument))) {
      if (Date.now() > deadline)
        throw new Error(`the page condition did not hold within ${options.timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, options.pollingMs));
    }
  }

  /** Closes the DevTools connection (the page stays open). */
  close(): void {
    this.#socket.close();
  }

  /** Listens to a DevTools event (e.g. Tracing.dataCollected); returns the function that stops listening. */
  on(method: string, listener: (params: unknown) => void): () => void {
    const listeners = this.#listeners.get(method) ?? new Set();
    listeners.add(listener);
    this.#listeners.set(method, listeners);
    return () => listeners.delete(listener);
  }

  /** Sends any DevTools command (e.g. Profiler.*) and resolves with its result. */
  async send(method: string, params: object = {}): Promise<unknown> {
    return (await this.#send(method, params)).result;
  }

  async #send(method: string, params: object): Promise<CdpAnswer> {
    const id = this.#nextId++;
    const answered = new Promise<CdpAnswer>((resolve) => this.#pending.set(id, resolve));
    this.#socket.send(JSON.stringify({ id, method, params }));
    const answer = await answered;
    if (answer.error) throw new Error(`${method} failed: ${answer.error.message}`);
    return answer;
  }
}
