import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

/** `@path` in one-shot mode, through the real binary: attached from -p <text>, never from piped text. */
let model: ScriptedModelServer;

beforeAll(async () => {
  model = await startScriptedModelServer(() => ({ text: "ok" }));
});
afterAll(async () => {
  await model.close();
});

function lastUserMessage(): string {
  const body = model.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> };
  return body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "";
}

describe("@path in one-shot mode", () => {
  it("attaches a file named in -p, refuses one outside the folder with exit 2, and leaves piped text alone", async () => {
    const dir = await tempDir("mcpterm-p-files-");
    await writeFile(path.join(dir, "notes.md"), "# Notes\n");
    const env = cleanEnv({ OPENAI_BASE_URL: model.baseUrl, MCPTERM_MODEL: "scripted" });

    const attached = await runCli(["--no-kb", "-p", "summarize @notes.md."], { cwd: dir, env });
    expect(attached.code, attached.stderr).toBe(0);
    expect(lastUserMessage()).toBe(
      'summarize @notes.md.\n\n<file path="notes.md" trust="untrusted">\n# Notes\n\n</file>',
    );

    const requests = model.requests.length;
    const outside = await runCli(["--no-kb", "-p", "read @../../etc/passwd"], { cwd: dir, env });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toBe(
      "mcpterm: @../../etc/passwd is outside the working folder; the message was not sent.\n",
    );
    expect(model.requests.length).toBe(requests);

    const piped = await runCli(["--no-kb", "-p", "-"], {
      cwd: dir,
      env,
      input: "log line @notes.md @/etc/passwd\n",
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(lastUserMessage()).toBe("log line @notes.md @/etc/passwd");
  });
});
