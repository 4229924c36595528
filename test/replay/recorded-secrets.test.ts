import { describe, expect, it } from "vitest";
import { matchTemplate, RecordedSecrets } from "../../src/core/replay/recorded-secrets.js";

describe("matchTemplate", () => {
  it.each([
    [["key=", ""], "key=abc123", ["abc123"]],
    [["key=", ";"], "key=abc;", ["abc"]],
    [["a ", " b ", " c"], "a one b two c", ["one", "two"]],
    [["key=", ""], "other=abc", undefined],
    [["key=", ";"], "key=;", undefined],
    [["key="], "key=x", undefined],
  ])("%j in %j", (parts, text, expected) => {
    expect(matchTemplate(parts, text)).toEqual(expected);
  });
});

describe("RecordedSecrets", () => {
  it("masks in a replayed value what the recording redacted, there and everywhere else", () => {
    const secrets = new RecordedSecrets();
    const recorded = { content: [{ type: "text", text: "token=[REDACTED]\nstatus: ok" }] };
    const replayed = {
      content: [{ type: "text", text: "token=hunter2-hunter2\nstatus: failing" }],
      extra: "hunter2-hunter2 again",
    };
    expect(secrets.mask(recorded, replayed)).toEqual({
      content: [{ type: "text", text: "token=[REDACTED]\nstatus: failing" }],
      extra: "[REDACTED] again",
    });
    expect(secrets.maskLearned("the call said hunter2-hunter2")).toBe("the call said [REDACTED]");
  });

  it("gives a whole string that reads the same around the redaction back as recorded", () => {
    const secrets = new RecordedSecrets();
    expect(secrets.mask("Bearer [REDACTED] sent", "Bearer abcdefgh sent")).toBe("Bearer [REDACTED] sent");
  });

  it("leaves values alone when the recording redacted nothing", () => {
    expect(new RecordedSecrets().mask({ a: "x" }, { a: "y" })).toEqual({ a: "y" });
  });
});
