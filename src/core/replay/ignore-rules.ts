import { parseJsonPath, type JsonPath } from "./json-path.js";

/** A field left out of comparisons: of every answer, or only of one tool's or prompt's. */
export interface IgnoreRule {
  path: JsonPath;
  /** `get_page` or `docs/get_page`; undefined for every call. */
  scope: string | undefined;
}

/**
 * `$.structuredContent.etag` for every answer, `get_page:$.etag` (or `docs/get_page:$.etag`) for
 * one tool's or prompt's answers only; a scoped path must start with `$`, so a key with a colon
 * in it is still written `$['a:b']`. Returns the sentence that says what is wrong instead.
 */
export function parseIgnoreRule(text: string): IgnoreRule | string {
  const scoped = /^([^$:\s][^:]*):\s*(\$.*)$/.exec(text.trim());
  const path = parseJsonPath(scoped?.[2] ?? text);
  if (typeof path === "string") return path;
  return { path, scope: scoped?.[1]?.trim() };
}

/** The paths left out of one call's answer: those of every call, and those scoped to its target. */
export function ignoredFor(
  rules: readonly IgnoreRule[],
  call: { kind: string; server: string; target: string },
): JsonPath[] {
  const names = call.kind === "resource" ? [] : [call.target, `${call.server}/${call.target}`];
  return rules
    .filter((rule) => rule.scope === undefined || names.includes(rule.scope))
    .map((rule) => rule.path);
}
