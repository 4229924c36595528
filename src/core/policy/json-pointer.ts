/**
 * What a local `$ref` (`#`, `#/$defs/a`: an RFC 6901 pointer in a URI fragment) names in
 * `document`, or undefined for an anchor, another document or a path that is not there.
 */
export function resolveLocalRef(document: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (fragment === "") return document;
  if (!fragment.startsWith("/")) return undefined;
  let node = document;
  for (const token of fragment.slice(1).split("/")) {
    const key = pointerToken(token);
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** One token of a JSON pointer as the key it names (`a~1b` is `a/b`, `~0` is `~`). */
export function pointerToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}
