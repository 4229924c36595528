import type { OAuthTokens } from "@modelcontextprotocol/client";
import { ServerUnavailableError } from "../errors.js";

/**
 * What every grant without a browser answers the SDK's OAuthClientProvider the same way: no
 * redirect, no authorization code, and the tokens it was issued kept in memory, each taught to the
 * redactor as it arrives. The grants themselves (workload identity, enterprise-managed) say how
 * a token is asked for.
 */
export abstract class BrowserlessGrant {
  protected current: OAuthTokens | undefined;

  protected constructor(
    /** The grant as a sentence names it: "workload identity". */
    private readonly grantName: string,
    protected readonly learnSecret: (secret: string) => void,
  ) {}

  get redirectUrl(): undefined {
    return undefined;
  }

  tokens(): OAuthTokens | undefined {
    return this.current;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.learnSecret(tokens.access_token);
    this.current = tokens;
  }

  redirectToAuthorization(): void {
    throw new ServerUnavailableError(`${this.grantName} signs in without a browser`);
  }

  saveCodeVerifier(): void {
    // No authorization code in these grants.
  }

  codeVerifier(): string {
    throw new ServerUnavailableError(`${this.grantName} has no code verifier`);
  }
}
