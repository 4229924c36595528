import { NOBODY } from "./person.js";
import { samplingRefused, type ServerRequestHandlers } from "./server-request-handlers.js";

/**
 * Servers' requests where nobody can be asked (a connection the session gave no handlers):
 * sampling refused and forms declined, for NOBODY's reason.
 */
export function declineServerRequests(): ServerRequestHandlers {
  return {
    createMessage: () =>
      Promise.reject(samplingRefused(`sampling request declined: ${String(NOBODY.absent)}`)),
    elicit: () => Promise.resolve({ action: "decline" }),
  };
}
