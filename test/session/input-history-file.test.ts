import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { InputHistoryFile } from "../../src/core/session/input-history-file.js";
import { FAKE_LINEAR_KEY } from "../support/fake-secrets.js";
import { tempDir } from "../support/fixtures.js";

describe("the input history file", () => {
  it("keeps what was sent in order, without a secret only the full rule set finds", async () => {
    const cwd = await tempDir("mcpterm-history-");
    const redactor = new SecretRedactor();
    const history = new InputHistoryFile(cwd, async (text) => (await redactor.redact(text)).text);
    history.append(`my key is ${FAKE_LINEAR_KEY}`);
    history.append("a plain question");
    history.append("   ");
    history.append("and the last one");
    await history.settled();
    const text = await readFile(history.file, "utf8");
    expect(text).not.toContain(FAKE_LINEAR_KEY.slice(8));
    expect(history.load()).toEqual(["my key is [REDACTED]", "a plain question", "and the last one"]);
  });
});
