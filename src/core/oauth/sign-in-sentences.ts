/**
 * One-shot mode, or nobody to ask: which command signs in. A server typed with --url has no
 * config entry for `auth login` to find: it can only be given a token, or named in the config.
 */
export function needsLoginSentence(server: string, typed = false): string {
  if (typed)
    return `server "${server}" needs you to sign in (OAuth), which mcpterm does for servers of the config: name it in mcp.config.json and run \`mcpterm auth login <name>\`, or, if it takes a token, pass it with --header "Authorization: Bearer …"`;
  return `server "${server}" needs you to sign in (OAuth); run \`mcpterm auth login ${server}\` (or /mcp login ${server} in the TUI), then try again`;
}

/** A server that answers 401 but publishes nothing to sign in with: what to configure instead. */
export function noOAuthSentence(server: string, failure: string | undefined, typed = false): string {
  const advice = typed
    ? `If it takes a token, pass it with --header "Authorization: Bearer …"; to sign in with a registered client, name the server in mcp.config.json with "oauth": { "clientId": … }`
    : `If it takes a token, set it in mcpServers.${server}.headers (for example "Authorization": "Bearer \${${envName(server)}_TOKEN}"); if you have a registered client, add "oauth": { "clientId": … }`;
  return `server "${server}" answered 401 (it needs authorization) but offers no way to sign in: it publishes no OAuth metadata${failure ? ` and registering a client failed (${failure})` : ""}. ${advice}`;
}

function envName(server: string): string {
  return server.toUpperCase().replace(/[^A-Z0-9]+/g, "_");
}

/** A server that answers 401 to the token it has just had issued: signing in again will not help. */
export function freshTokenRefusedSentence(server: string): string {
  return (
    `server "${server}" refused the token it had just had issued (401 right after signing in): its authorization server may issue tokens for another audience, or the server may not accept them; ` +
    `run \`mcpterm auth logout ${server}\` and sign in once more, and if it happens again, tell the server's owner`
  );
}

/** Discovery found a metadata document that does not have what RFC 8414 / RFC 9728 require. */
export function invalidMetadataSentence(server: string, problems: string, typed = false): string {
  const token = typed
    ? `pass it with --header "Authorization: Bearer …"`
    : `set it in mcpServers.${server}.headers`;
  return `server "${server}" publishes OAuth metadata that is not valid (${problems}), so mcpterm cannot sign in; the server's owner must fix it — or, if it takes a token, ${token}`;
}
