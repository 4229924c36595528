/**
 * Why a tool call failed, which decides what happens next (docs/architecture.md, "Failures"):
 * - invalid_args: the arguments were wrong; the model gets the error and may fix them.
 * - transient: timeout, lost connection, crashed server; may be retried with backoff.
 * - permission: denied by a person or policy, or the server said forbidden; never retried.
 * - business: the tool ran and reported an error; explained, not retried.
 * - cancelled: the person cancelled the turn while the call was pending or running.
 */
export const FAILURE_CLASSES = ["invalid_args", "transient", "permission", "business", "cancelled"] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];
