import {
  AuthorizationServerMismatchError,
  IssuerMismatchError,
  validateAuthorizationResponseIssuer,
  type OAuthDiscoveryState,
} from "@modelcontextprotocol/client";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";

/**
 * The two issuer checks against authorization-server mix-up, both made by the SDK and worded
 * here: the `issuer` in a metadata document must be identical to the issuer identifier its
 * well-known URL was built from (RFC 8414 §3.3; the SDK refuses the document during discovery,
 * before anything is registered or sent), and the `iss` of an authorization response must be the
 * issuer the person was sent to (RFC 9207; required when the metadata advertises
 * `authorization_response_iss_parameter_supported`, compared whenever present). Both compare
 * strings; nothing is normalised.
 *
 * Returns the sentence that stops the sign-in, or undefined when `error` is no issuer mismatch.
 */
export function issuerRefusal(server: string, error: unknown): string | undefined {
  const moved = find(error, AuthorizationServerMismatchError);
  // Credentials bound to one authorization server (a configured issuer) met another.
  if (moved)
    return sanitizeForTerminal(
      `sign-in to "${server}" stopped: the server sends sign-ins to ${moved.currentIssuer}, but its credentials belong to ${moved.recordedIssuer}; nothing was sent there. Check the entry's oauth.issuer, or remove it if the server moved.`,
    );
  const mismatch = find(error, IssuerMismatchError);
  if (!mismatch) return undefined;
  if (mismatch.kind === "metadata")
    return sanitizeForTerminal(
      `sign-in to "${server}" stopped: the authorization server metadata fetched for issuer ${mismatch.expected} names issuer ${JSON.stringify(mismatch.received)} instead, and RFC 8414 requires them to be identical (a defence against mix-up attacks); nothing was sent to it.`,
    );
  // The `iss` received is the attacker's word in a mix-up: it is never shown (RFC 9207 §2.4).
  const what =
    mismatch.received === undefined
      ? "without the iss parameter its authorization server promises"
      : "naming another authorization server as its issuer";
  return sanitizeForTerminal(
    `sign-in to "${server}" stopped: the browser came back ${what} (RFC 9207, a defence against mix-up attacks), so the code was not redeemed at ${mismatch.expected}; try again, and if it repeats, check what stands between your browser and that server.`,
  );
}

/**
 * Checks the `iss` of an authorization response that carries an error instead of a code: the
 * SDK never sees those, and RFC 9207 says an `error` from the wrong issuer must be neither acted
 * on nor shown. Throws the SDK's IssuerMismatchError on a mismatch.
 */
export function checkErrorResponseIssuer(
  iss: string | undefined,
  discovery: OAuthDiscoveryState | undefined,
): void {
  const metadata = discovery?.authorizationServerMetadata;
  const expectedIssuer = metadata?.issuer ?? discovery?.authorizationServerUrl;
  if (expectedIssuer === undefined) return;
  validateAuthorizationResponseIssuer({
    iss,
    expectedIssuer,
    issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
  });
}

function find<T extends Error>(error: unknown, kind: abstract new (...args: never[]) => T): T | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++)
    if (cause instanceof kind) return cause;
  return undefined;
}
