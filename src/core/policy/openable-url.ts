/** Only web pages are opened: no file:, javascript:, data: or custom schemes that run programs. */
export function openableUrl(text: string): URL | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}
