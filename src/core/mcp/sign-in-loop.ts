import type { ServerAuth } from "../oauth/server-auth.js";

/** Sign-ins one connection attempt may ask for: the first, and one step-up for more scopes. */
const MAX_SIGN_INS = 2;

/** What the connection lends the loop: stopping a refused attempt, and whether it is closing. */
export interface AttemptControl {
  /** Stops the refused attempt (its process, its client) so a fresh one can start. */
  stop(): Promise<void>;
  /** Read after every await: `close()` may have run while a sign-in waited on the person. */
  isClosing(): boolean;
}

export type AttemptOutcome = { kind: "connected" } | { kind: "closing" } | { kind: "failed"; error: unknown };

/**
 * Connects, signing in when the server asks for it: with a person at hand, a refused attempt
 * (401, or 403 for more scopes while listing) is stopped, the person signs in, and a fresh
 * attempt connects with the tokens. The start-up deadline covers each attempt, not the time the
 * person takes in the browser.
 */
export async function connectSigningIn(
  auth: ServerAuth | undefined,
  attempt: () => Promise<void>,
  control: AttemptControl,
): Promise<AttemptOutcome> {
  for (let signIns = 0; ; signIns++) {
    let failure: unknown;
    try {
      await attempt();
      return { kind: "connected" };
    } catch (error) {
      failure = error;
    }
    if (!auth?.needsSignIn(failure) || signIns >= MAX_SIGN_INS || control.isClosing())
      return { kind: "failed", error: failure };
    await control.stop();
    try {
      await auth.signIn(auth.fetch(fetch));
    } catch (error) {
      return { kind: "failed", error };
    }
    if (control.isClosing()) return { kind: "closing" };
  }
}

/**
 * Sends a request; when the server wants more scopes for it (403 insufficient_scope), signs in
 * for them and sends it once more. A second refusal is final (the SDK stops re-asking too).
 */
export async function withStepUp<T>(auth: ServerAuth | undefined, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!auth?.needsSignIn(error)) throw error;
    await auth.signIn(auth.fetch(fetch));
    return await send();
  }
}
