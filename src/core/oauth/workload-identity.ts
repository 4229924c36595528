import { readRegularFileSync } from "../files/regular-file.js";
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  StoredOAuthClientInformation,
} from "@modelcontextprotocol/client";
import { errorMessage, ServerUnavailableError } from "../errors.js";
import { CLIENT_INFO } from "../version.js";
import { BrowserlessGrant } from "./browserless-grant.js";
import type { ServerOAuth } from "../config/server-oauth.js";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * Workload identity federation (SEP-1933): a workload (a CI job, a pod) signs in with the JWT its
 * platform issued it, sent as an RFC 7523 jwt-bearer grant; no browser, no client secret. The
 * JWT names the authorization server as its audience, so it is sent to the configured issuer
 * only (the SDK refuses another: the client information is stamped with it and cannot be
 * registered again). A refusal (invalid_grant, invalid_scope, unauthorized_client) is final:
 * no retry, no other grant. The SDK has no provider for this grant; this is the small one it
 * would be.
 */
export class WorkloadIdentityProvider extends BrowserlessGrant implements OAuthClientProvider {
  /** The JWT last sent, and the one the authorization server refused. */
  private sent: string | undefined;
  private refused: string | undefined;

  constructor(
    private readonly oauth: ServerOAuth,
    learnSecret: (secret: string) => void,
  ) {
    super("workload identity", learnSecret);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: CLIENT_INFO.name,
      redirect_uris: [],
      grant_types: [JWT_BEARER],
      token_endpoint_auth_method: "none",
    };
  }

  clientInformation(): StoredOAuthClientInformation {
    return { client_id: this.oauth.clientId ?? "", issuer: this.oauth.issuer ?? "" };
  }

  /** The SDK says so after an invalid_grant or unauthorized_client, before it would try again. */
  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "tokens") {
      this.current = undefined;
      this.refused = this.sent;
    }
  }

  /** The grant: the workload's JWT as read now (a file is read each time: platforms rotate it). */
  prepareTokenRequest(scope?: string): URLSearchParams {
    const assertion = this.assertion();
    // SEP-1933: a refused JWT is not sent again, nor another grant tried; a new JWT may be.
    if (assertion === this.refused)
      throw new ServerUnavailableError(
        `the authorization server refused the workload's JWT (invalid_grant or unauthorized_client); it is not sent again until the platform issues a new one.`,
      );
    this.learnSecret(assertion);
    this.sent = assertion;
    return new URLSearchParams({ grant_type: JWT_BEARER, assertion, ...(scope ? { scope } : {}) });
  }

  private assertion(): string {
    const { assertion, assertionFile } = this.oauth;
    if (assertion !== undefined) return assertion;
    try {
      return readRegularFileSync(assertionFile ?? "").trim();
    } catch (error) {
      throw new ServerUnavailableError(
        `could not read the workload's JWT from ${assertionFile ?? "(none)"}: ${errorMessage(error)}`,
      );
    }
  }
}
