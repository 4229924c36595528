import { describe, expect, it } from "vitest";
import { editDistance, nearestKey } from "../../src/core/config/nearest-key.js";

const SERVER = ["type", "command", "args", "env", "cwd", "url", "httpUrl", "headers", "disabled", "tiers"];

describe("nearestKey", () => {
  it.each<[string, readonly string[], string | undefined]>([
    ["mcpServer", ["mcpServers", "approval", "kb", "model"], "mcpServers"],
    ["mcpservers", ["mcpServers", "approval"], "mcpServers"],
    ["mcp-servers", ["mcpServers", "approval"], "mcpServers"],
    ["servers", ["mcpServers", "approval"], "mcpServers"],
    ["aproval", ["mcpServers", "approval"], "approval"],
    ["evn", SERVER, "env"],
    ["arg", SERVER, "args"],
    ["header", SERVER, "headers"],
    ["comand", SERVER, "command"],
    ["disable", SERVER, "disabled"],
    // Other clients' own keys resemble none of mcpterm's.
    ["dev", SERVER, undefined],
    ["envFile", SERVER, undefined],
    ["description", SERVER, undefined],
    ["autoApprove", SERVER, undefined],
    ["transportType", SERVER, undefined],
    ["oauth", SERVER, undefined],
    ["theme", ["mcpServers", "approval", "kb", "model"], undefined],
  ])("%s -> %s", (unknown, known, expected) => {
    expect(nearestKey(unknown, known)).toBe(expected);
  });

  it("prefers the closest of several candidates", () => {
    expect(nearestKey("timeoutM", ["timeout", "timeoutMs"])).toBe("timeoutMs");
  });
});

describe("editDistance", () => {
  it.each<[string, string, number]>([
    ["", "", 0],
    ["abc", "abc", 0],
    ["abc", "", 3],
    ["kitten", "sitting", 3],
    ["evn", "env", 1],
    ["ab", "ba", 1],
  ])("%s / %s = %d", (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });
});
