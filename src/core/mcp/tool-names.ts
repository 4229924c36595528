import { createHash } from "node:crypto";

/** What OpenAI-compatible APIs accept as a function name. */
export const MODEL_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const SEPARATOR = "__";

export interface ToolIdentity {
  server: string;
  tool: string;
}

/**
 * Gives every (server, tool) pair a `server__tool` name that models accept. Invalid characters
 * become `_`; names that are too long are shortened with a hash suffix; a name that two pairs
 * would share is disambiguated with a hash of the original pair, in input order, so the same
 * servers always produce the same names.
 */
export function assignModelToolNames(tools: readonly ToolIdentity[]): Map<string, ToolIdentity> {
  const byName = new Map<string, ToolIdentity>();
  for (const identity of tools) {
    let name = modelToolName(identity.server, identity.tool);
    if (byName.has(name)) name = withSuffix(name, shortHash(`${identity.server}\u0000${identity.tool}`));
    byName.set(name, identity);
  }
  return byName;
}

export function modelToolName(server: string, tool: string): string {
  const raw = `${sanitize(server)}${SEPARATOR}${sanitize(tool)}`;
  if (raw.length <= MAX_LENGTH) return raw;
  return withSuffix(raw, shortHash(`${server}\u0000${tool}`));
}

function sanitize(part: string): string {
  const cleaned = part.replace(/[^a-zA-Z0-9_-]/g, "_");
  return cleaned === "" ? "_" : cleaned;
}

function withSuffix(name: string, suffix: string): string {
  return `${name.slice(0, MAX_LENGTH - suffix.length - 1)}_${suffix}`;
}

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 8);
}
