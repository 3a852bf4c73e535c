/** How a domain finds one of its long calls by id: the function that cancels it, or undefined if none. */
export type CallFinder = (callId: string) => (() => void) | undefined;

/**
 * The one way to cancel a long call over IPC (`call:cancel`), whatever its domain: a wizard run, a gateway task,
 * a fleet job, a site pack preparation. Each domain adds a finder over the calls it keeps; cancelling asks them
 * in turn. Calls are found where their domain keeps them, so nothing here outlives them. An unknown or finished
 * call id is not an error: a Cancel that comes after the end does nothing.
 */
export class CallCancellation {
  private readonly finders: CallFinder[] = [];

  /** Adds a domain's long calls. */
  addFinder(find: CallFinder): void {
    this.finders.push(find);
  }

  /** Cancels the call with that id, if one is under way; answers whether one was. */
  cancel(callId: string): boolean {
    for (const find of this.finders) {
      const cancel = find(callId);
      if (cancel) {
        cancel();
        return true;
      }
    }
    return false;
  }
}
