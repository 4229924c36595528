import type { Tool } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { applyConfigToolNames } from "../../src/core/mcp/config-tool-names.js";

const tool = (name: string): Tool => ({ name, inputSchema: { type: "object" } });
const listed = [tool("echo"), tool("get_thing"), tool("delete_file")];

describe("a config entry's tool names beside what the server lists", () => {
  it("keeps what the lists keep and says which list left each other tool out", () => {
    const { kept, leftOut, unknownNames } = applyConfigToolNames(listed, {
      includeTools: ["echo", "delete_file"],
      excludeTools: ["delete_file"],
      tiers: { get_thing: "dangerous" },
    });
    expect(kept.map((entry) => entry.name)).toEqual(["echo"]);
    expect(leftOut).toEqual([
      { name: "get_thing", by: "includeTools" },
      { name: "delete_file", by: "excludeTools" },
    ]);
    expect(unknownNames).toEqual([]);
  });

  it("names a typo in includeTools, excludeTools or tiers, with the nearest listed name", () => {
    const { kept, unknownNames } = applyConfigToolNames(listed, {
      includeTools: ["ecoh"],
      excludeTools: ["nothing_like_it"],
      tiers: { get_thnig: "dangerous" },
    });
    expect(kept).toEqual([]);
    expect(unknownNames).toEqual([
      'includeTools names "ecoh", which the server does not list (did you mean "echo"?)',
      'excludeTools names "nothing_like_it", which the server does not list',
      'tiers names "get_thnig", which the server does not list (did you mean "get_thing"?)',
    ]);
  });
});
