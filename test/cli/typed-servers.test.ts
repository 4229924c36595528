import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir, writeJson } from "../support/fixtures.js";
import { installNotesServer, notesCommand } from "../support/notes-server.js";
import { processesMatching, waitForNoProcesses } from "../support/process-table.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

/**
 * Servers typed on the command line (after `--`, or as `--url`), with no config: the commands an
 * author runs against the server being written.
 */
const marker = randomUUID();
const TOKEN = "kb-author-token-0123456789abcdef";
let dir: string;
let script: string;
let serve: ChildProcess;
let url: string;

beforeAll(async () => {
  dir = await tempDir();
  script = await installNotesServer(dir);
  // A config in the folder that would fail to load: a typed server does not read it.
  await writeFile(path.join(dir, "mcp.config.json"), "{ not json");
  const kb = await tempDir();
  await mkdir(path.join(kb, "knowledge_base"));
  await writeFile(path.join(kb, "knowledge_base", "deploy.md"), "# Deploy\n\nRoll back with undo.\n");
  serve = spawn(process.execPath, [CLI, "serve", "--http", "0", "--token-env", "KB_TOKEN"], {
    cwd: kb,
    env: cleanEnv({ KB_TOKEN: TOKEN }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  serve.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const found = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    if (found) {
      url = found;
      break;
    }
    if (Date.now() > deadline || serve.exitCode !== null) throw new Error(`serve did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

afterAll(() => {
  if (serve.exitCode === null) serve.kill("SIGKILL");
  for (const pid of processesMatching(marker)) process.kill(pid, "SIGKILL");
});

const notes = (...args: string[]) =>
  runCli([...args, "--", ...notesCommand(script, marker)], { cwd: dir, env: cleanEnv() });

describe("a server typed after --", () => {
  it("reads a resource and lists resources, with the broken config in the folder left unread", async () => {
    const read = await notes("read", "notes://2");
    expect(read).toMatchObject({ code: 0, stdout: "Tag, build, publish.\n" });
    const resources = await notes("resources");
    expect(resources.code).toBe(0);
    expect(resources.stdout).toMatch(/^notes: 2 resources, 0 templates$/m);
    expect(resources.stdout).toContain("  notes://1  Rollback  text/plain\n");
  });

  it("renders a prompt from key=value and positional arguments, as text and as JSON", async () => {
    const text = await notes("prompts", "summarize_note", "1", "style=bullets");
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(
      "notes/summarize_note: A summary request (1 message)\n── user ──\nSummarize this note as bullets:\nRollback: Revert the deploy, then page the on-call.\n",
    );
    const json = await notes("prompts", "summarize_note", "id=2", "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({
      server: "notes",
      prompt: "summarize_note",
      arguments: { id: "2" },
      result: {
        messages: [
          {
            role: "user",
            content: { type: "text", text: "Summarize this note as prose:\nRelease: Tag, build, publish." },
          },
        ],
      },
    });
  });

  it("says what a prompt takes when an argument is missing or unknown, and which prompts there are (exit 2)", async () => {
    const missing = await notes("prompts", "summarize_note");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "mcpterm: mcpterm prompts summarize_note needs id: mcpterm prompts summarize_note <id> [style].\n",
    );
    const unknown = await notes("prompts", "summarize_note", "id=1", "tone=dry");
    expect(unknown.stderr).toMatch(/has no argument "tone" \(its arguments: id, style\)/);
    const none = await notes("prompts", "summarise");
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'mcpterm: Server "notes" has no prompt "summarise" (its prompts: summarize_note).\n',
    );
  });

  it("calls a tool with key=value words typed by its schema, beside JSON", async () => {
    const run = await notes("call", "search_notes", "query=r", "limit=1");
    expect(run).toMatchObject({ code: 0, stdout: "1: Rollback\n2: Release\n" });
    const wrong = await notes("call", "search_notes", '{"query":"r"}', "limit=many");
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(
      /do not match the input schema of notes\/search_notes: .*limit.*must be integer/,
    );
    const twice = await notes("call", "search_notes", "query=a", "query=b");
    expect(twice).toMatchObject({
      code: 2,
      stderr: "mcpterm: The argument query= was given twice; give it once.\n",
    });
    expect(await waitForNoProcesses(marker)).toEqual([]);
  });
});

describe("a server given as --url", () => {
  it("is examined by mcpterm doctor, which names a refused sign-in and how to send a token", async () => {
    const run = await runCli(["doctor", "--url", url], { cwd: dir, env: cleanEnv() });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^ {2}✓ spawn +reached http:\/\/127\.0\.0\.1:\d+\/mcp, which asks for authorization \(below\)$/m,
    );
    expect(run.stdout).toMatch(/^ {2}· handshake +not before a sign-in$/m);
    expect(run.stdout).toMatch(/^ {2}✗ authorization +sign-in: browser; no sign-in stored; refused: .*401/m);
    expect(run.stdout).toContain(
      '      a server given with --url sends a token as --header "Authorization: Bearer ${TOKEN}"\n',
    );
  });

  it("sends --header with ${VAR} read from the environment, and never shows the token", async () => {
    const args = ["doctor", "--url", url, "--header", "Authorization: Bearer ${KB_TOKEN}", "--no-calls"];
    const run = await runCli(args, { cwd: dir, env: cleanEnv({ KB_TOKEN: TOKEN }) });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}✓ authorization +sign-in: own header; no sign-in stored; accepted$/m);
    expect(run.stdout).toMatch(/^ {2}✓ listing +\d+ tools? \(\d+ ms\)/m);
    const unset = await runCli(["tools", "--url", url, "--header", "Authorization: Bearer ${KB_TOKEN}"], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(unset.code).toBe(4);
    expect(unset.stdout).toMatch(/failed — --header needs \$KB_TOKEN, which is not set/);
    expect(run.stdout + run.stderr + unset.stdout + unset.stderr).not.toContain(TOKEN);
  });

  it("refuses --header without --url, and a header in clear text to another host (exit 2)", async () => {
    const alone = await runCli(["tools", "--header", "X-Key: 1", "--", "node", "s.js"], {
      cwd: dir,
      env: cleanEnv(),
    });
    expect(alone).toMatchObject({ code: 2 });
    expect(alone.stderr).toMatch(/--header goes with --url/);
    const plain = await runCli(
      ["tools", "--url", "http://mcp.example.com/mcp", "--header", "Authorization: Bearer x"],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(
      /--url http:\/\/mcp\.example\.com\/mcp is plain http to mcp\.example\.com, which would send its headers \(Authorization\) unencrypted; use https/,
    );
  });
});

describe("a typed server and a config side by side", () => {
  it("is a usage error to give --config with one", async () => {
    const other = await tempDir();
    await writeJson(path.join(other, "c.json"), { mcpServers: {} });
    const run = await runCli(["tools", "--config", "c.json", "--", "node", "s.js"], {
      cwd: other,
      env: cleanEnv(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /--config names the servers to start; with a server after -- or --url, leave it out/,
    );
  });
});
