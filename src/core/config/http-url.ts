/** True for absolute http: and https: URLs, the only ones an MCP server or model endpoint can use. */
export function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/**
 * Hosts whose traffic never leaves this machine: localhost, 127.0.0.0/8 and ::1 (also written
 * as an IPv4-mapped address). `hostname` is as `new URL` gives it, which has already turned
 * spellings such as `127.1` or `0x7f.0.0.1` into `127.0.0.1`. 0.0.0.0 is not among them: it
 * names no host, and some systems route it off the machine.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return (
    host === "localhost" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === "[::1]" ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  );
}
