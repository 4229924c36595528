import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { openSession } from "../../src/core/session/open-session.js";
import { fixtureLaunch, tempDir, writeJson } from "../support/fixtures.js";
import { HIDDEN_LINT_TOKEN, HIDDEN_PATTERN_TOKEN, HOSTILE_TOKEN, hostileLaunch } from "../support/hostile.js";
import { sanitizeForTerminal } from "../../src/core/policy/sanitize-terminal.js";
import { waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli, trustingConfig } from "../support/run-cli.js";
import { commandContext, interactiveRequest } from "../support/session.js";
import { startScriptedModelServer, type ScriptedModelServer } from "../support/scripted-model-server.js";

const models: ScriptedModelServer[] = [];
afterAll(async () => {
  await Promise.all(models.map((model) => model.close()));
});

/** A project whose `hostile` server writes a secret from its own config env to stderr. */
async function project(marker: string, crash: boolean): Promise<string> {
  const dir = await tempDir();
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      hostile: hostileLaunch(marker, crash ? { HOSTILE_CRASH: "1" } : {}),
      fixture: fixtureLaunch(marker),
    },
  });
  return dir;
}

describe("what a server writes is redacted before it is shown or stored", () => {
  it("in one-shot mode's warning and the trace, when the server fails with a secret in its stderr", async () => {
    const marker = randomUUID();
    const dir = await project(marker, true);
    const model = await startScriptedModelServer([{ text: "done" }]);
    models.push(model);
    const trace = path.join(dir, "t.jsonl");
    const run = await runCli(
      ["-p", "x", "--trust-config", "--model", "m", "--base-url", model.baseUrl, "--trace", trace],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /warning: server "hostile" could not be started: .*exited \(code 1\) before it was connected: .*\[REDACTED\]/,
    );
    expect(run.stderr).not.toContain(HOSTILE_TOKEN);
    expect(await readFile(trace, "utf8")).not.toContain(HOSTILE_TOKEN);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("in mcpterm tools, as text and as JSON, for a failed server and a running one", async () => {
    for (const crash of [true, false]) {
      const dir = await project(randomUUID(), crash);
      for (const json of [false, true]) {
        const run = await runCli(trustingConfig(["tools", ...(json ? ["--json"] : [])]), {
          cwd: dir,
          env: cleanEnv(),
        });
        // A running hostile server's definitions are lint errors (exit 1); a crashed one is exit 4.
        expect(run.code).toBe(crash ? 4 : 1);
        expect(run.stdout + run.stderr).not.toContain(HOSTILE_TOKEN);
        if (json) expect(run.stdout).toContain("[REDACTED]");
      }
    }
  });

  it("in /mcp and /mcp logs", async () => {
    const dir = await project(randomUUID(), false);
    const runtime = await openSession(interactiveRequest({ trustConfig: true }), {
      env: cleanEnv(),
      cwd: dir,
    });
    try {
      await runtime.start().servers;
      const context = commandContext(runtime);
      const logs = await runSlashCommand(context, "/mcp logs hostile");
      expect(JSON.stringify(logs)).toContain("connecting with token [REDACTED]");
      expect(JSON.stringify(logs)).not.toContain(HOSTILE_TOKEN);
      expect(JSON.stringify(await runSlashCommand(context, "/mcp"))).not.toContain(HOSTILE_TOKEN);
    } finally {
      await runtime.close();
    }
  });

  it("in a tool's error message, wherever it goes: the model, stream-json, the trace, mcpterm call and read", async () => {
    const marker = randomUUID();
    const dir = await project(marker, false);
    const model = await startScriptedModelServer([
      { toolCalls: [{ id: "b1", name: "hostile__get_backend", arguments: "{}" }] },
      { text: "It failed." },
    ]);
    models.push(model);
    const trace = path.join(dir, "t.jsonl");
    const run = await runCli(
      [
        "-p",
        "x",
        "--trust-config",
        "--output",
        "stream-json",
        "--model",
        "m",
        "--base-url",
        model.baseUrl,
        "--trace",
        trace,
      ],
      { cwd: dir, env: cleanEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("backend failed for token [REDACTED]");
    for (const text of [
      run.stdout,
      run.stderr,
      await readFile(trace, "utf8"),
      JSON.stringify(model.requests),
    ]) {
      expect(text).not.toContain(HOSTILE_TOKEN);
    }

    const call = await runCli(trustingConfig(["call", "hostile/get_backend"]), { cwd: dir, env: cleanEnv() });
    expect(call.code).toBe(1);
    expect(call.stderr).toMatch(/^mcpterm: .*backend failed for token \[REDACTED\]/);
    expect(call.stderr).not.toMatch(/internal error/);
    const read = await runCli(trustingConfig(["read", "hostile", "file:///x"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(read.code).toBe(1);
    expect(read.stderr).toMatch(/read failed for token \[REDACTED\]/);
    expect(call.stderr + read.stderr).not.toContain(HOSTILE_TOKEN);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });

  it("in a result that splits a secret with what draws as nothing, a control or an escape sequence", async () => {
    const marker = randomUUID();
    const dir = await project(marker, false);
    const model = await startScriptedModelServer([
      { toolCalls: [{ id: "h1", name: "hostile__hidden_token", arguments: "{}" }] },
      { text: "Done." },
    ]);
    models.push(model);
    const trace = path.join(dir, "t.jsonl");
    const flags = ["--trust-config", "--model", "m", "--base-url", model.baseUrl];
    const run = await runCli(["-p", "x", ...flags, "--output", "stream-json", "--trace", trace], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(run.code).toBe(0);
    const call = await runCli(trustingConfig(["call", "hostile/hidden_token"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    const json = await runCli(trustingConfig(["call", "hostile/hidden_token", "--json"]), {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(call.stdout).toMatch(/status: \[REDACTED\]/);
    const seen = [
      run.stdout,
      run.stderr,
      await readFile(trace, "utf8"),
      JSON.stringify(model.requests),
      call.stdout,
      json.stdout,
    ];
    for (const text of seen) {
      // Read as a terminal or the model reads it: escapes decoded, what hides taken out.
      const bare = sanitizeForTerminal(
        text.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) =>
          String.fromCharCode(Number.parseInt(hex, 16)),
        ),
      );
      for (const secret of [HOSTILE_TOKEN, HIDDEN_PATTERN_TOKEN, HIDDEN_LINT_TOKEN])
        expect(bare).not.toContain(secret);
    }
    // The model was handed the result, its secrets redacted, and never the tool named with one.
    expect(JSON.stringify(model.requests)).toMatch(/status: \[REDACTED\]/);
    expect(JSON.stringify(model.requests)).not.toMatch(/lookup_/);
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});
