import { isLoopbackHost } from "./http-url.js";

/** The parts of a remote server entry that decide what a request puts on the wire. */
export interface RemoteRequest {
  /** After `${VAR}` expansion. */
  url: string;
  /** As written, to tell which parts of the URL came from the environment. */
  rawUrl: string;
  headers: Record<string, string>;
}

/**
 * What a request to this server would send in clear text to a host off this machine — its
 * headers (where tokens travel), a user name and password in the URL, or values the URL's query
 * takes from the environment — or undefined when nothing secret would be exposed: https, a
 * loopback host, or nothing secret to send.
 */
export function clearTextSecrets({
  url,
  rawUrl,
  headers,
}: RemoteRequest): { host: string; secrets: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" || isLoopbackHost(parsed.hostname)) return undefined;
  const names = Object.keys(headers);
  const exposed = [
    ...(names.length > 0 ? [`its headers (${names.join(", ")})`] : []),
    ...(parsed.username !== "" || parsed.password !== "" ? ["the user name and password in its URL"] : []),
    ...(rawUrl.split("#")[0]?.split("?")[1]?.includes("${") ? ["the environment values in its URL"] : []),
  ];
  return exposed.length === 0 ? undefined : { host: parsed.host, secrets: exposed.join(" and ") };
}
