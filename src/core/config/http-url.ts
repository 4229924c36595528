/** True for absolute http: and https: URLs, the only ones an MCP server or model endpoint can use. */
export function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
