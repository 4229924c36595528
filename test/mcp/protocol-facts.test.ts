import { describe, expect, it } from "vitest";
import { protocolFacts, protocolLabel } from "../../src/core/mcp/protocol-facts.js";

describe("protocolFacts and protocolLabel", () => {
  it("say the version initialize agreed on, and nothing when none is known", () => {
    expect(protocolFacts({ protocolVersion: "2025-11-25" })).toEqual({
      version: "2025-11-25",
      era: undefined,
    });
    expect(protocolLabel(protocolFacts({ protocolVersion: "2025-11-25" }))).toBe("protocol 2025-11-25");
    expect(protocolLabel(protocolFacts({ protocolVersion: undefined }))).toBeUndefined();
  });

  it("name the era beside the version once it is known, in the separator each view uses", () => {
    expect(protocolLabel({ version: "2026-07-28", era: "stateless" }, " · ")).toBe(
      "protocol 2026-07-28 · era stateless",
    );
  });
});
