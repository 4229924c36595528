import { describe, expect, it } from "vitest";
import { assignModelToolNames, modelToolName } from "../../src/core/mcp/tool-names.js";

describe("modelToolName", () => {
  it.each([
    ["filesystem", "read_file", "filesystem__read_file"],
    ["my server", "get.weather", "my_server__get_weather"],
    ["数据", "查询", "______"],
  ])("%s + %s -> %s", (server, tool, name) => {
    expect(modelToolName(server, tool)).toBe(name);
  });

  it("shortens long names to 64 characters with a stable hash suffix", () => {
    const name = modelToolName(
      "a-very-long-server-name-for-testing",
      "an_even_longer_tool_name_that_goes_on_and_on",
    );
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(
      modelToolName("a-very-long-server-name-for-testing", "an_even_longer_tool_name_that_goes_on_and_on"),
    ).toBe(name);
  });
});

describe("assignModelToolNames", () => {
  it("resolves collisions deterministically, first come keeps the plain name", () => {
    const names = [
      ...assignModelToolNames([
        { server: "a.b", tool: "x" },
        { server: "a_b", tool: "x" },
      ]).keys(),
    ];
    expect(names[0]).toBe("a_b__x");
    expect(names[1]).toMatch(/^a_b__x_[0-9a-f]{8}$/);
    const again = [
      ...assignModelToolNames([
        { server: "a.b", tool: "x" },
        { server: "a_b", tool: "x" },
      ]).keys(),
    ];
    expect(again).toEqual(names);
  });
});
