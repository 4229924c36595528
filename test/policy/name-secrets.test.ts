import { describe, expect, it } from "vitest";
import { nameHoldsSecret } from "../../src/core/policy/name-secrets.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { SECRET_NAME_REASON, toolWithholdReason } from "../../src/core/policy/tool-withhold.js";

const KEY = `sk-proj-${"Ab3dEf6hIj9kLm2nOp5q".repeat(4)}`;
const redactor = new SecretRedactor([KEY]);
const holds = (name: string): boolean => nameHoldsSecret(name, redactor);

describe("a tool's name that carries a secret", () => {
  it.each([
    ["a token glued to a verb", "get_ghp_R4nd0mT0k3nV4lu3Xyz123456789abcdEFgh"],
    ["a token after a dash", "fetch-glpat-abcdefghij0123456789"],
    ["the start of a known key", `get_${KEY.slice(0, 60)}`],
    ["a long run of a known key without its prefix", `lookup_${KEY.slice(8, 40)}`],
  ])("is found: %s", (_, name) => {
    expect(holds(name)).toBe(true);
    expect(toolWithholdReason({ name, inputSchema: { type: "object" } }, undefined, false, holds)).toBe(
      SECRET_NAME_REASON,
    );
  });

  it.each(["get_weather", "list_pull_requests", "github.search_code", "read_file", "sk_lookup", "ghp_help"])(
    "is not %s",
    (name) => {
      expect(holds(name)).toBe(false);
    },
  );

  it("is not read word by word past the 128 characters MCP allows a name: such a tool is withheld first", () => {
    let read = 0;
    const counted = (name: string): boolean => {
      read += 1;
      return holds(name);
    };
    const name = "_".repeat(200_000);
    expect(toolWithholdReason({ name, inputSchema: { type: "object" } }, undefined, false, counted)).toBe(
      "its name is 200000 characters, more than the 128 MCP allows",
    );
    expect(read).toBe(0);
  });
});
