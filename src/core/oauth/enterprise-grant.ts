import {
  CrossAppAccessProvider,
  requestJwtAuthorizationGrant,
  type OAuthClientProvider,
  type OAuthTokens,
} from "@modelcontextprotocol/client";
import { isLoopbackHost } from "../config/http-url.js";
import { errorMessage, McpError } from "../errors.js";
import { sanitizeForTerminal } from "../policy/sanitize-terminal.js";
import { CLIENT_INFO } from "../version.js";
import type { ServerOAuth } from "../config/server-oauth.js";
import { credentialForms } from "./stored-provider.js";

/**
 * Enterprise-managed authorization (SEP-990, "cross-app access"): the company's identity
 * provider vouches for the person. Its ID token is exchanged at the IdP for an identity
 * assertion grant (ID-JAG, RFC 8693 token exchange) addressed to the server's authorization
 * server, which trades it for an access token (RFC 7523 jwt-bearer), the client authenticating
 * with its secret. Both legs are the SDK's (CrossAppAccessProvider, requestJwtAuthorizationGrant);
 * the configured issuer pins where the ID-JAG may go: the SDK refuses any other authorization
 * server before the ID token is exchanged. No browser: the ID token comes from the environment,
 * where SSO tooling puts it.
 */
export function enterpriseGrantProvider(
  oauth: ServerOAuth,
  learnSecret: (secret: string) => void,
): OAuthClientProvider {
  const clientId = oauth.clientId ?? "";
  const clientSecret = oauth.clientSecret ?? "";
  for (const form of credentialForms(clientId, clientSecret)) learnSecret(form);
  const provider = new CrossAppAccessProvider({
    clientId,
    clientSecret,
    clientName: CLIENT_INFO.name,
    expectedIssuer: oauth.issuer ?? "",
    assertion: async ({ authorizationServerUrl, resourceUrl, scope, fetchFn }) => {
      const tokenEndpoint = idpTokenEndpoint(oauth);
      try {
        const { jwtAuthGrant } = await requestJwtAuthorizationGrant({
          tokenEndpoint,
          audience: authorizationServerUrl,
          resource: resourceUrl,
          idToken: oauth.idToken ?? "",
          clientId: oauth.idpClientId ?? "",
          ...(scope ? { scope } : {}),
          fetchFn,
        });
        learnSecret(jwtAuthGrant);
        return jwtAuthGrant;
      } catch (error) {
        throw new McpError(
          `the identity provider refused the token exchange: ${sanitizeForTerminal(errorMessage(error).slice(0, 300))}`,
          { cause: error },
        );
      }
    },
  });
  const save = provider.saveTokens.bind(provider);
  provider.saveTokens = (tokens: OAuthTokens): void => {
    learnSecret(tokens.access_token);
    save(tokens);
  };
  return provider;
}

/** The IdP's token endpoint, where the ID token goes: https, or http on this machine only. */
function idpTokenEndpoint(oauth: ServerOAuth): URL {
  const endpoint = new URL(oauth.idpTokenEndpoint ?? "");
  if (endpoint.protocol !== "https:" && !(endpoint.protocol === "http:" && isLoopbackHost(endpoint.hostname)))
    throw new McpError(
      `the identity provider's token endpoint must be https, got ${endpoint.protocol}//${endpoint.host}`,
    );
  return endpoint;
}
