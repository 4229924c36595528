import { randomUUID } from "node:crypto";
import { chmod, readFile, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, EVERYTHING_SERVER, tempDir, writeJson } from "../support/fixtures.js";
import { waitForNoProcesses } from "../support/process-table.js";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedReply,
} from "../support/scripted-model-server.js";
import { mcptermPaneCommand, TmuxTerminal } from "../support/tmux.js";

/**
 * The real binary in a pseudo-terminal against server-everything: the scripted model calls the
 * tools that make the server ask for sampling, a form and a web page, and the person answers.
 */
const marker = randomUUID();
const PAGE = "https://example.com/cb?state=a;b&next=$(id)";
let model: ScriptedModelServer;
let terminal: TmuxTerminal;
let dir: string;
let browserLog: string;

interface Message {
  role: string;
  content: unknown;
}

/** The parts of a chat request these tests read. */
interface ChatBody {
  messages: Message[];
  tools?: unknown[];
  max_tokens?: number;
}

const bodyOf = (request: RecordedRequest): ChatBody => request.body as ChatBody;
const messagesOf = (request: RecordedRequest): Message[] => bodyOf(request).messages;
/** A sampling request reaches the model with no tools; a turn of the conversation offers them. */
const isSampling = (request: RecordedRequest): boolean => !Array.isArray(bodyOf(request).tools);

function reply(request: RecordedRequest): ScriptedReply {
  if (isSampling(request)) return { text: "Steam rises from tea" };
  const last = messagesOf(request).at(-1);
  if (last?.role === "tool") return { text: "The tool has finished." };
  const content = typeof last?.content === "string" ? last.content : "";
  const call = (tool: string, args: object): ScriptedReply => ({
    toolCalls: [{ name: `everything__${tool}`, arguments: JSON.stringify(args) }],
  });
  if (content.startsWith("sample"))
    return call("trigger-sampling-request", { prompt: "a haiku", maxTokens: 50 });
  if (content.startsWith("form")) return call("trigger-elicitation-request", {});
  if (content.startsWith("open"))
    return call("trigger-url-elicitation", { url: PAGE, message: "Sign in to go on." });
  return { text: "Hello." };
}

/** What the model was told a tool returned, in the last turn request that holds a tool result. */
function lastToolResult(): string {
  const request = model.requests.findLast((candidate) => messagesOf(candidate).at(-1)?.role === "tool");
  return String(request ? messagesOf(request).at(-1)?.content : "");
}

const toolResults = (): number =>
  model.requests.filter((request) => messagesOf(request).at(-1)?.role === "tool").length;

/** Waits until the model has read one more tool result than `before`, and the turn is over. */
async function turnEnded(before: number): Promise<void> {
  await terminal.waitFor(
    (screen) => toolResults() > before && screen.includes("Ctrl+D exit"),
    "the turn to end after the tool result",
  );
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Types text and presses Enter once it shows, so the Enter never arrives in the same read as the text. */
async function send(text: string): Promise<void> {
  terminal.text(text);
  await terminal.waitFor((screen) => screen.includes(`› ${text}`), `"${text}" in the prompt`);
  terminal.keys("Enter");
}

beforeAll(async () => {
  expect(existsSync(CLI), "run npm run build first").toBe(true);
  model = await startScriptedModelServer(reply);
  dir = await tempDir("mcpterm-tui-requests-");
  browserLog = path.join(dir, "browser-argv");
  // A browser that writes down how many arguments it got, and each on its own line.
  const browser = path.join(dir, "browser.sh");
  await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$#" "$@" > '${browserLog}'\n`);
  await chmod(browser, 0o755);
  const tools = ["trigger-sampling-request", "trigger-elicitation-request", "trigger-url-elicitation"];
  await writeJson(path.join(dir, "mcp.config.json"), {
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [EVERYTHING_SERVER, "stdio", `--marker=${marker}`],
        // The calls themselves run unasked, so the questions under test are the only panels.
        tiers: Object.fromEntries(tools.map((tool) => [tool, "read_only"])),
      },
    },
  });
  const command = mcptermPaneCommand({
    home: dir,
    env: [`BROWSER=${browser}`],
    args: ["--trust-config", "--no-kb", "--model", "scripted", "--base-url", model.baseUrl],
  });
  terminal = new TmuxTerminal(command, { cwd: dir, columns: 120, rows: 50 });
});

afterAll(async () => {
  terminal.close();
  await model.close();
  expect(await waitForNoProcesses(marker)).toEqual([]);
});

describe("servers' questions in the TUI, in a pseudo-terminal", () => {
  it("offers server-everything's tools that need a person, and lists the working folder as a root", async () => {
    await terminal.waitFor((screen) => screen.includes("1/1 servers ready"), "the server");
    // The server adds these tools just after it learns what the client can do: ask until they are listed.
    let listed = false;
    for (let attempt = 0; attempt < 10 && !listed; attempt += 1) {
      await send("/tools everything");
      listed = await terminal
        .waitFor((screen) => /trigger-url-elicitation\s+read_only/.test(screen), "the tools", 3000)
        .then(
          () => true,
          () => false,
        );
    }
    expect(listed).toBe(true);
    await send("/roots");
    await terminal.waitFor(
      // The folder's column keeps the end of its path, however long the path (or the temp folder) is.
      (screen) =>
        screen.includes("Roots (offered to servers that ask)") &&
        screen.includes(path.basename(dir).slice(-12)),
      "the roots",
    );
  }, 60_000);

  it("a sampling request: what the person was typing stays in the prompt; Edit, then a later Enter, sends the edit", async () => {
    const before = toolResults();
    await send("sample something");
    // The person goes on typing while the model calls the tool and the server asks: letters that
    // are the panel's shortcuts (y, e, n, d), digits and all go into the prompt and decide nothing.
    const typeSlowly = async (text: string): Promise<void> => {
      for (const character of text) {
        terminal.text(character);
        await pause(40);
      }
    };
    // The first letter is no shortcut: from it on the prompt holds a draft, and every letter types into it.
    await typeSlowly("also ");
    for (let typed = 0; !terminal.screen().includes("asks to use the model") && typed < 60; typed += 1)
      await typeSlowly("then ".charAt(typed % 5));
    const panel = await terminal.waitFor((screen) => screen.includes("asks to use the model"), "the panel");
    expect(panel).toContain("system: You are a helpful test server.");
    expect(panel).toContain("user: Resource trigger-sampling-request context: a haiku");
    expect(panel).toContain("scripted answers · at most 50 tokens · temperature 0.7");
    const sentence = "yes edit 1 2 denied";
    await typeSlowly(sentence);
    const typing = await terminal.waitFor(
      (screen) => screen.includes(sentence),
      "the sentence in the prompt",
    );
    expect(typing).toContain("asks to use the model");
    expect(typing).toMatch(/› 1\. Deny \(n\)/);
    expect(model.requests.filter(isSampling)).toHaveLength(0);

    // Once the person has stopped typing: ↑ stays on Deny, the top; ↓ ↓ to "Edit the message", Enter opens it.
    await pause(1000);
    terminal.keys("Up");
    await pause(200);
    expect(terminal.screen()).toMatch(/› 1\. Deny \(n\)/);
    // Had ↑ moved the focus anywhere, one ↓ could not land just below Deny.
    terminal.keys("Down");
    await terminal.waitFor(
      (screen) => /› 2\. Deny and tell the server why/.test(screen),
      "the focus on Deny, saying why",
    );
    terminal.keys("Down");
    await terminal.waitFor((screen) => /› 3\. Edit the message/.test(screen), "the focus on Edit");
    // A choice counts only a pause after the focus moved.
    await pause(1000);
    terminal.keys("Enter");
    await terminal.waitFor((screen) => screen.includes("as it will be sent"), "the editor");
    terminal.text(" about tea");
    await terminal.waitFor((screen) => screen.includes("context: a haiku about tea"), "the edit");
    await pause(1000);
    terminal.keys("Enter");
    await turnEnded(before);

    const sampling = model.requests.find(isSampling);
    expect(sampling && messagesOf(sampling)).toEqual([
      { role: "system", content: "You are a helpful test server." },
      { role: "user", content: "Resource trigger-sampling-request context: a haiku about tea" },
    ]);
    expect(sampling && bodyOf(sampling).max_tokens).toBe(50);
    expect(lastToolResult()).toContain("Steam rises from tea");
    const after = terminal.screen();
    expect(after).toContain("as you edited it");
    // What the person typed while the panel was up is still in the prompt, unsent.
    expect(after).toMatch(new RegExp(`› also (then ?)*.*${sentence}`));
    terminal.keys("C-u");
    await terminal.waitFor((screen) => /^│ › +│$/m.test(screen), "Ctrl+U to clear the prompt");
  }, 90_000);

  it("a form: fields filled in by key, a problem shown under its field, accepted only after a pause", async () => {
    const before = toolResults();
    await send("form please");
    await terminal.waitFor((screen) => screen.includes("asks you to fill in a form"), "the form");
    await pause(1000);
    terminal.text("Ada");
    await terminal.waitFor((screen) => screen.includes("› String *: Ada"), "the name typed");
    terminal.keys("Tab", "Space", "Tab", "Tab");
    terminal.text("not-an-email");
    await terminal.waitFor((screen) => screen.includes("not-an-email"), "the email typed");
    terminal.keys("Tab");
    await terminal.waitFor(
      (screen) => screen.includes("✗ String with email format must be an email address"),
      "the email's problem under it",
    );
    terminal.keys("BTab", "C-u");
    terminal.text("ada@example.com");
    await terminal.waitFor((screen) => screen.includes("ada@example.com"), "the email fixed");
    // Tab through the other fields to the buttons, and Enter in the same breath: that is no accept.
    terminal.keys(...Array<string>(10).fill("Tab"), "Enter");
    await terminal.waitFor((screen) => screen.includes("←/→ choose · Enter confirm"), "the buttons");
    await pause(1000);
    expect(terminal.screen()).toContain("asks you to fill in a form");
    terminal.keys("Enter");
    await turnEnded(before);
    const result = lastToolResult();
    expect(result).toContain("User provided the requested information");
    expect(result).toContain("- Name: Ada");
    expect(result).toContain("- Agreed to terms: true");
    expect(result).toContain("- Email: ada@example.com");
    // The defaults the person saw pre-filled were sent as they were.
    expect(result).toContain("It was a dark and stormy night.");
    expect(terminal.screen()).toContain('Sent your answers to server "everything"\'s form.');
  }, 90_000);

  it("a web page: the domain shown on its own, nothing opened on a no, and on a yes the browser gets the URL as one argument", async () => {
    const before = toolResults();
    await send("open it");
    const panel = await terminal.waitFor(
      (screen) => screen.includes("asks you to open a web page"),
      "the panel",
    );
    expect(panel).toMatch(/Domain: +example\.com/);
    expect(panel).toContain(`Address: ${PAGE}`);
    expect(panel).toContain("Sign in to go on.");
    await pause(1000);
    terminal.text("n");
    await turnEnded(before);
    expect(lastToolResult()).toContain("User declined to open the URL");
    expect(existsSync(browserLog)).toBe(false);

    const answered = model.requests.length;
    const declined = toolResults();
    await send("open it again");
    await terminal.waitFor(
      (screen) => model.requests.length > answered && /› 1\. Decline \(n\)/.test(screen),
      "the second panel",
    );
    await pause(1000);
    terminal.text("y");
    await terminal.waitFor(() => existsSync(browserLog), "the browser to be started");
    expect(await readFile(browserLog, "utf8")).toBe(`1\n${PAGE}\n`);
    await turnEnded(declined);
    expect(lastToolResult()).toContain("User completed the URL elicitation flow");

    // Idle first: Ctrl+D during a turn asks for a second press instead of exiting.
    await terminal.waitFor((screen) => screen.includes("Ctrl+D exit"), "no turn running");
    terminal.keys("C-d");
    await terminal.waitFor((screen) => screen.includes("EXITED 0"), "a clean exit");
  }, 90_000);
});
