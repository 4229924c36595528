import { describe, expect, it } from "vitest";
import { nodeVersionProblem } from "../../src/node-version.js";

describe("the Node version check", () => {
  it.each(["22.15.0", "22.23.5", "23.0.0", "24.1.0"])("runs on %s", (version) => {
    expect(nodeVersionProblem(version)).toBeUndefined();
  });

  it.each(["22.14.0", "22.13.1", "22.12.0", "20.20.2", "18.19.1"])(
    "refuses %s in one sentence",
    (version) => {
      expect(nodeVersionProblem(version)).toBe(
        `mcpterm: needs Node.js 22.15 or newer, and this is v${version}; install Node 22 (see the README's quick start).`,
      );
    },
  );
});
