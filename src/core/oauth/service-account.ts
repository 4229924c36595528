import type { OAuthClientProvider } from "@modelcontextprotocol/client";
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from "@modelcontextprotocol/client";
import type { OAuthTokens } from "@modelcontextprotocol/client";
import { CLIENT_INFO } from "../version.js";
import type { ServerOAuth } from "../config/server-oauth.js";
import { credentialForms } from "./stored-provider.js";

/**
 * A service account's sign-in (client credentials, for CI): the SDK's providers, with a client
 * secret (client_secret_basic or _post, as the authorization server supports) or a private key
 * (private_key_jwt). Tokens stay in memory, fetched again whenever needed, and every one is
 * learned as a secret so it is redacted everywhere.
 */
export function serviceAccountProvider(
  oauth: ServerOAuth,
  learnSecret: (secret: string) => void,
): OAuthClientProvider {
  const clientId = oauth.clientId ?? "";
  const scope = oauth.scopes?.join(" ");
  // The configured issuer pins where the secret or key may go (config parsing requires it here).
  const common = {
    clientId,
    clientName: CLIENT_INFO.name,
    expectedIssuer: oauth.issuer ?? "",
    ...(scope ? { scope } : {}),
  };
  const provider =
    oauth.privateKey !== undefined
      ? new PrivateKeyJwtProvider({
          ...common,
          privateKey: oauth.privateKey,
          algorithm: oauth.signingAlgorithm ?? "ES256",
        })
      : new ClientCredentialsProvider({ ...common, clientSecret: oauth.clientSecret ?? "" });
  // The secret travels in an Authorization: Basic header or a form: each form is a secret too.
  if (oauth.clientSecret !== undefined)
    for (const form of credentialForms(clientId, oauth.clientSecret)) learnSecret(form);
  const save = provider.saveTokens.bind(provider);
  provider.saveTokens = (tokens: OAuthTokens): void => {
    learnSecret(tokens.access_token);
    if (tokens.refresh_token) learnSecret(tokens.refresh_token);
    save(tokens);
  };
  return provider;
}
