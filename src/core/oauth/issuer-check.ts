import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";

/**
 * RFC 8414 §3.3, the defence against authorization-server mix-up: the `issuer` in a metadata
 * document must be identical to the issuer identifier its well-known URL was built from, here
 * the one the server's protected-resource metadata named: compared as strings, nothing
 * normalised. Servers of the 2025-03-26 spec name none; their own origin is the authorization
 * server, the SDK builds the URL from it, and their metadata (the conformance suite's included)
 * often gives the issuer a path, so there the issuer must be on that origin, not another.
 * Returns the sentence that stops the sign-in, or undefined when the metadata may be used.
 */
export function issuerMismatch(server: string, state: OAuthDiscoveryState): string | undefined {
  const claimed = state.authorizationServerMetadata?.issuer;
  // No metadata document at all: the SDK falls back to fixed endpoints, with nothing to compare.
  if (claimed === undefined) return undefined;
  const asked = state.authorizationServerUrl;
  if (state.resourceMetadata?.authorization_servers?.includes(asked)) {
    if (claimed === asked) return undefined;
    return refusal(server, `issuer ${asked}`, claimed);
  }
  const origin = originOf(asked);
  if (originOf(claimed) === origin) return undefined;
  return refusal(server, `the server's own origin ${origin ?? asked}`, claimed);
}

function refusal(server: string, asked: string, claimed: string): string {
  return sanitizeForTerminal(
    `sign-in to "${server}" stopped: the authorization server metadata fetched for ${asked} names issuer ${JSON.stringify(claimed)} instead, and RFC 8414 requires them to be identical (a defence against mix-up attacks); nothing was sent to it.`,
  );
}

function originOf(url: string): string | undefined {
  return URL.canParse(url) ? new URL(url).origin : undefined;
}
