import { DpopSession, type OAuthClientProvider } from "@modelcontextprotocol/client";

/**
 * DPoP-bound tokens (RFC 9449, the MCP extension of SEP-1932) for an entry that asks for them
 * (`"dpop": true`): the provider hands the SDK one signing key for the connection's life, and
 * the SDK does the rest: a proof on every token request and a fresh one (new `jti`, `ath` bound
 * to the token) with each request to the server under the `DPoP` scheme, retrying once with the
 * nonce an authorization server or the server asks for (`use_dpop_nonce`). The key lives in
 * memory only, so tokens stored by an earlier process no longer prove possession: that
 * process's sign-in is redone rather than a key written to disk.
 */
export function bindTokensWithDpop(provider: OAuthClientProvider): void {
  let session: Promise<DpopSession> | undefined;
  provider.dpop = () => (session ??= DpopSession.create());
}
