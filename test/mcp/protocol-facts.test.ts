import { describe, expect, it } from "vitest";
import { protocolFacts, protocolLabel } from "../../src/core/mcp/protocol-facts.js";

describe("protocolFacts and protocolLabel", () => {
  it("say the revision the two sides settled on, and nothing when none is known", () => {
    expect(protocolFacts({ protocolVersion: "2025-11-25", era: undefined })).toEqual({
      version: "2025-11-25",
      era: undefined,
    });
    expect(protocolLabel(protocolFacts({ protocolVersion: "2025-11-25", era: undefined }))).toBe(
      "protocol 2025-11-25",
    );
    expect(protocolLabel(protocolFacts({ protocolVersion: undefined, era: undefined }))).toBeUndefined();
  });

  it("name the era beside the version once it is known", () => {
    expect(protocolLabel({ version: "2026-07-28", era: "modern" })).toBe("protocol 2026-07-28 (modern)");
    expect(protocolLabel({ version: "2025-11-25", era: "legacy" })).toBe("protocol 2025-11-25 (legacy)");
  });
});
