import { describe, expect, it } from "vitest";
import { classifyTier, splitWords, type TierInput } from "../../src/core/policy/classify-tier.js";

const untrusted = (name: string, extra: Partial<TierInput> = {}): TierInput => ({
  name,
  trustedServer: false,
  ...extra,
});

describe("classifyTier", () => {
  it.each([
    // The user's override wins over everything.
    [untrusted("delete_everything", { override: "read_only" }), "read_only", "config"],
    [
      untrusted("read_file", { override: "dangerous", annotations: { readOnlyHint: true } }),
      "dangerous",
      "config",
    ],
    // Annotations decide when the name does not suggest a lower tier.
    [untrusted("frobnicate", { annotations: { readOnlyHint: true } }), "read_only", "readOnlyHint"],
    [untrusted("frobnicate", { annotations: { destructiveHint: true } }), "dangerous", "destructiveHint"],
    [
      untrusted("frobnicate", { annotations: { readOnlyHint: false, destructiveHint: false } }),
      "low_risk",
      "destructiveHint: false",
    ],
    [
      untrusted("frobnicate", { annotations: { openWorldHint: true, readOnlyHint: true } }),
      "external",
      "openWorldHint",
    ],
    // Untrusted annotations may raise a tier...
    [untrusted("read_file", { annotations: { destructiveHint: true } }), "dangerous", "destructiveHint"],
    [untrusted("write_file", { annotations: { destructiveHint: true } }), "dangerous", "destructiveHint"],
    // ...but never lower it below what the name suggests.
    [
      untrusted("delete_everything", { annotations: { readOnlyHint: true } }),
      "dangerous",
      "name: delete; readOnlyHint ignored (untrusted server)",
    ],
    [
      untrusted("send_email", { annotations: { readOnlyHint: true } }),
      "external",
      "name: send; readOnlyHint ignored (untrusted server)",
    ],
    // A trusted server's annotations decide outright.
    [
      { name: "delete_cache", trustedServer: true, annotations: { readOnlyHint: true } },
      "read_only",
      "readOnlyHint",
    ],
    // The name decides when nothing else does.
    [untrusted("list_directory"), "read_only", "name: list"],
    [untrusted("getWeather"), "read_only", "name: get"],
    [untrusted("create_issue"), "low_risk", "name: create"],
    [untrusted("fetch"), "external", "name: fetch"],
    [untrusted("run-command"), "dangerous", "name: run"],
    [untrusted("files.remove"), "dangerous", "name: remove"],
    // Nothing says it is safe: dangerous.
    [untrusted("frobnicate"), "dangerous", "default: nothing says it is safe"],
    [
      untrusted("frobnicate", { annotations: { idempotentHint: true } }),
      "dangerous",
      "default: nothing says it is safe",
    ],
  ])("%j -> %s (%s)", (input, tier, reason) => {
    expect(classifyTier(input)).toEqual({ tier, reason });
  });

  it.each([
    ["deleteFile", ["delete", "file"]],
    ["delete_file", ["delete", "file"]],
    ["files.delete-all", ["files", "delete", "all"]],
    ["HTTPRequest", ["httprequest"]],
  ])("splits %s into words", (name, words) => {
    expect(splitWords(name)).toEqual(words);
  });
});
