import { createHash, webcrypto } from "node:crypto";
import {
  DpopSession,
  generateDpopKeyPair,
  type DpopKeyPair,
  type OAuthClientProvider,
} from "@modelcontextprotocol/client";

/**
 * DPoP-bound tokens (RFC 9449, the MCP extension of SEP-1932) for an entry that asks for them
 * (`"dpop": true`): the provider hands the SDK one signing key, and the SDK does the rest: a
 * proof on every token request and a fresh one (new `jti`, `ath` bound to the token) with each
 * request to the server under the `DPoP` scheme, retrying once with the nonce an authorization
 * server or the server asks for (`use_dpop_nonce`). For grants that sign in by themselves and
 * store nothing (service accounts), the key lives as long as the connection.
 */
export function bindTokensWithDpop(provider: OAuthClientProvider): void {
  let session: Promise<DpopSession> | undefined;
  provider.dpop = () => (session ??= DpopSession.create());
}

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" } as const;

/**
 * DPoP keys for tokens that outlive the process (a browser sign-in's): a token bound to a key
 * is useless without it, and a public client's refresh token is bound too (RFC 9449 §5). A key
 * stored with the tokens it bound is used again; until tokens are saved, a new key is made
 * (extractable, so that it can be saved with them) and kept in memory.
 */
export class LastingDpopKeys {
  private readonly sessions = new Map<string, Promise<DpopSession>>();
  private fresh: Promise<{ session: DpopSession; key: JsonWebKey }> | undefined;

  /** The session of `stored` (the key saved with the tokens in use), or of the new key. */
  session(stored: JsonWebKey | undefined): Promise<DpopSession> {
    if (stored === undefined) {
      this.fresh ??= newKey();
      return this.fresh.then(({ session }) => session);
    }
    const id = thumbprint(stored);
    let session = this.sessions.get(id);
    if (!session) {
      session = sessionOf(stored);
      this.sessions.set(id, session);
    }
    return session;
  }

  /**
   * The key to save with tokens just issued, whose request was signed with `session(stored)`:
   * the stored one, or the new one, which from then on is a stored key like any other.
   */
  async keyToSave(stored: JsonWebKey | undefined): Promise<JsonWebKey | undefined> {
    if (stored !== undefined) return stored;
    const fresh = this.fresh;
    if (!fresh) return undefined;
    const { session, key } = await fresh;
    this.sessions.set(thumbprint(key), Promise.resolve(session));
    if (this.fresh === fresh) this.fresh = undefined;
    return key;
  }

  /** After a sign-out: no key of the forgotten credentials signs anything again. */
  forget(): void {
    this.sessions.clear();
    this.fresh = undefined;
  }
}

async function newKey(): Promise<{ session: DpopSession; key: JsonWebKey }> {
  const pair = await generateDpopKeyPair({ alg: "ES256", extractable: true });
  const { kty, crv, x, y, d } = await webcrypto.subtle.exportKey("jwk", pair.privateKey);
  return { session: await DpopSession.create({ keyPair: pair }), key: { kty, crv, x, y, d } };
}

async function sessionOf(stored: JsonWebKey): Promise<DpopSession> {
  const { kty, crv, x, y } = stored;
  const publicJwk = { kty, crv, x, y };
  const keyPair: DpopKeyPair = {
    privateKey: await webcrypto.subtle.importKey("jwk", stored, ALGORITHM, false, ["sign"]),
    publicKey: await webcrypto.subtle.importKey("jwk", publicJwk, ALGORITHM, true, ["verify"]),
    publicJwk,
    thumbprint: thumbprint(stored),
    alg: "ES256",
  };
  return DpopSession.create({ keyPair });
}

/** The RFC 7638 thumbprint of an EC key: what an authorization server binds tokens to (`cnf.jkt`). */
export function thumbprint(key: JsonWebKey): string {
  const canonical = JSON.stringify({ crv: key.crv, kty: key.kty, x: key.x, y: key.y });
  return createHash("sha256").update(canonical).digest("base64url");
}
