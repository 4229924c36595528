import { NOBODY } from "./person.js";
import { samplingRefused, type ServerRequestHandlers } from "./server-request-handlers.js";

/**
 * Servers' requests where nobody can be asked (a connection the session gave no handlers, the
 * developer commands): sampling refused and forms declined, for NOBODY's reason. `notify` hears
 * each refusal in the words one-shot mode uses, so a server author sees why their tool got a no.
 */
export function declineServerRequests(notify?: (text: string) => void): ServerRequestHandlers {
  const reason = String(NOBODY.absent);
  return {
    createMessage: (server) => {
      notify?.(`Declined a sampling request from server "${server}": ${reason}.`);
      return Promise.reject(samplingRefused(`sampling request declined: ${reason}`));
    },
    elicit: (server) => {
      notify?.(`Declined a request for input from server "${server}": ${reason}.`);
      return Promise.resolve({ action: "decline" });
    },
  };
}
