import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { compareAnswers } from "../../src/core/replay/compare-answers.js";
import { RecordedSecrets } from "../../src/core/replay/recorded-secrets.js";
import { TraceRecorder } from "../../src/core/trace/trace-recorder.js";
import { FAKE_OPENAI_KEY } from "../support/fake-secrets.js";
import { tempDir } from "../support/fixtures.js";

describe("replaying an answer the trace kept as a preview", () => {
  it("finds no difference in the same answer, secrets and all", async () => {
    const dir = await tempDir();
    const redactor = new SecretRedactor([]);
    const recorder = TraceRecorder.open({
      dir: path.join(dir, "traces"),
      redaction: redactor.forRecords,
      model: "m",
      servers: [],
      cwd: dir,
      maxRecordChars: 1000,
    });
    const value = {
      content: [
        { type: "text", text: `the key is ${FAKE_OPENAI_KEY}` },
        { type: "text", text: "x ".repeat(2000) },
      ],
    };
    recorder.rawResult("c1", value as never);
    await recorder.settled();
    recorder.close();
    const line = (await readFile(recorder.file, "utf8"))
      .split("\n")
      .find((each) => each.includes("raw_result"));
    const recorded = JSON.parse(line ?? "{}") as { preview: string; chars: number };
    expect(recorded.preview).toContain("[REDACTED]");
    const comparison = await compareAnswers(
      "tool",
      { kind: "preview", preview: recorded.preview, chars: recorded.chars },
      { kind: "result", value },
      { redactor, secrets: new RecordedSecrets(), ignore: [] },
    );
    expect(comparison.differences).toEqual([]);
  });
});
