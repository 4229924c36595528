/** Where requests go when no base URL is set. */
export const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * How error sentences name the model endpoint: scheme, host and path. A user name, password or
 * query string (where some gateways take a key) is left out, so the sentence never carries a secret.
 */
export function endpointLabel(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    // Settings already checked it is a URL; anything else is shown as the person typed it.
    return baseUrl;
  }
}

/**
 * `path` under the base URL, its query kept at the end (`…/v1/chat/completions?api-version=2`
 * for an Azure-style gateway), a trailing slash or two not doubled.
 */
export function endpointUrl(baseUrl: string, path: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${path}`;
  url.hash = "";
  return url.toString();
}
