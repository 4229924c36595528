import { createServer, type Server } from "node:http";
import { isIP, type AddressInfo } from "node:net";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageFetcher } from "../../src/common/page-fetcher.js";
import type { CommandContext } from "../../src/core/commands/command-types.js";
import type { ApprovalAnswer, FetchQuestion } from "../../src/core/person/approval-request.js";
import { NOBODY } from "../../src/core/person/person.js";
import { ToolAllowances } from "../../src/core/policy/tool-allowances.js";
import { personWho } from "../support/person.js";
import { SLASH_COMMANDS, runSlashCommand } from "../../src/core/commands/slash-commands.js";
import { openKnowledgeBase, type KnowledgeBase } from "../../src/core/kb/index.js";
import { McpManager } from "../../src/core/mcp/mcp-manager.js";
import { SecretRedactor } from "../../src/core/policy/redact-secrets.js";
import { tempDir } from "../support/fixtures.js";

let web: Server;
let port: number;
let dir: string;
let kb: KnowledgeBase;
let fetched = 0;
let context: CommandContext;

beforeAll(async () => {
  web = createServer((_req, res) => {
    fetched++;
    res
      .writeHead(200, { "content-type": "text/html" })
      .end("<h1>Escalation</h1><p>Call the duty manager.</p>");
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  port = (web.address() as AddressInfo).port;
  dir = await tempDir("mcpterm-kb-slash-");
  await mkdir(path.join(dir, "kb"));
  kb = await openKnowledgeBase({ dir: path.join(dir, "kb"), indexDir: path.join(dir, "index") });
  await kb.refresh();
  // wiki.example.test is "public" and served locally; the address guard runs on what this resolves.
  const fetchPage = pageFetcher({
    lookup: (host) => Promise.resolve([{ address: isIP(host) ? host : "203.0.113.9" }]),
    route: () => ({ address: "127.0.0.1", port }),
  });
  context = {
    manager: new McpManager([], { parentEnv: {} }),
    redactor: new SecretRedactor(),
    tools: () => [],
    knowledge: () => ({ state: "ready", kb }),
    commands: SLASH_COMMANDS,
    clearConversation: () => true,
    traceFile: () => undefined,
    model: { current: () => "m", problem: () => undefined, switchTo: () => undefined },
    documents: { cwd: dir, fetchPage, person: NOBODY, allowances: new ToolAllowances() },
  };
});

afterAll(async () => {
  await new Promise((resolve) => web.close(resolve));
});

describe("/kb add and /kb remove", () => {
  it("adds a file and indexes it at once", async () => {
    await writeFile(path.join(dir, "pager.md"), "# Pager\n\nSilence the pager during drills.\n");
    const result = await runSlashCommand(context, "/kb add pager.md");
    expect(result).toMatchObject({ kind: "text", text: expect.stringMatching(/^Added pager\.md/) as string });
    expect(kb.search("silence pager")[0]?.path).toBe("pager.md");
  });

  it("adds and removes a file whose name has spaces, given in quotes", async () => {
    await writeFile(path.join(dir, "on call.md"), "# On call\n\nThe rota hands over on Mondays.\n");
    expect(await runSlashCommand(context, "/kb add on call.md")).toEqual({
      kind: "error",
      message:
        'Usage: /kb add <path|url> [--as <name>] [--force] (a name with spaces goes in quotes: "my notes.md")',
    });
    const added = await runSlashCommand(context, '/kb add "on call.md" --as "rota notes.md"');
    expect(added).toMatchObject({
      kind: "text",
      text: expect.stringMatching(/^Added rota notes\.md/) as string,
    });
    expect(kb.search("rota hands over")[0]?.path).toBe("rota notes.md");
    expect(await runSlashCommand(context, "/kb remove 'rota notes.md'")).toMatchObject({ kind: "text" });
    expect(kb.search("rota hands over")).toEqual([]);
  });

  it("asks before fetching a page, and fetches only on the confirming command", async () => {
    const url = "http://wiki.example.test/escalation";
    const asked = await runSlashCommand(context, `/kb add ${url}`);
    expect(asked).toEqual({
      kind: "text",
      text: `Fetching ${url} reaches wiki.example.test: an external call, so it needs your yes. To fetch it and add it to the knowledge base, type /kb add --yes ${url}`,
    });
    expect(fetched).toBe(0);
    const added = await runSlashCommand(context, `/kb add --yes ${url}`);
    expect(added).toMatchObject({
      kind: "text",
      text: expect.stringMatching(/^Added escalation\.md/) as string,
    });
    expect(fetched).toBe(1);
    expect(kb.search("duty manager")[0]?.path).toBe("escalation.md");
  });

  it("refuses what cannot be added, in one sentence", async () => {
    expect(await runSlashCommand(context, "/kb add pager.md")).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/already; pass --force/) as string,
    });
    expect(await runSlashCommand(context, "/kb add pager.md --as ../x.md")).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/leads outside the knowledge folder/) as string,
    });
    expect(await runSlashCommand(context, "/kb add")).toEqual({
      kind: "error",
      message: "Usage: /kb add <path|url> [--as <name>] [--force]",
    });
    const { documents: _none, ...without } = context;
    expect(await runSlashCommand(without, "/kb add pager.md")).toEqual({
      kind: "error",
      message: "Adding documents is not available here.",
    });
  });

  it("removes a document", async () => {
    expect(await runSlashCommand(context, "/kb remove pager.md")).toMatchObject({ kind: "text" });
    expect(await readdir(path.join(dir, "kb"))).toEqual(["escalation.md"]);
    expect(kb.search("silence pager")).toEqual([]);
  });
});

describe("/kb add <url> where the person can be asked", () => {
  it("asks with the host and policy's reason, fetches on a yes, and fetches nothing on a no", async () => {
    const url = "http://wiki.example.test/oncall";
    const asked: FetchQuestion[] = [];
    let answer: ApprovalAnswer = { approved: false, reason: "the user denied it" };
    const allowances = new ToolAllowances();
    const asking = (): CommandContext => ({
      ...context,
      documents: {
        cwd: dir,
        fetchPage: context.documents?.fetchPage ?? (() => Promise.reject(new Error("no fetcher"))),
        person: personWho({
          approveFetch: (question) => {
            asked.push(question);
            return Promise.resolve(answer);
          },
        }),
        allowances,
      },
    });
    const before = fetched;
    expect(await runSlashCommand(asking(), `/kb add ${url}`)).toEqual({
      kind: "text",
      text: `Not fetched (the user denied it): ${url}. /kb add --yes ${url} fetches it without asking.`,
    });
    expect(asked).toEqual([{ url, host: "wiki.example.test", reason: "external calls need a person's yes" }]);
    expect(fetched).toBe(before);

    answer = { approved: true, reason: "approved once by the user" };
    expect(await runSlashCommand(asking(), `/kb add ${url} --as oncall.md`)).toMatchObject({
      kind: "text",
      text: expect.stringMatching(/^Added oncall\.md/) as string,
    });
    expect(fetched).toBe(before + 1);

    // "Always allow" is an allowance like a tool's: it and --yes both run later fetches unasked.
    answer = { approved: true, remember: "session", reason: "allowed for the rest of this session" };
    expect(await runSlashCommand(asking(), `/kb add ${url} --as oncall-2.md`)).toMatchObject({
      text: expect.stringMatching(/^Added oncall-2\.md/) as string,
    });
    expect(await runSlashCommand(asking(), `/kb add ${url} --as oncall-4.md`)).toMatchObject({
      text: expect.stringMatching(/^Added oncall-4\.md/) as string,
    });
    expect(await runSlashCommand(asking(), `/kb add --yes ${url} --as oncall-3.md`)).toMatchObject({
      text: expect.stringMatching(/^Added oncall-3\.md/) as string,
    });
    expect(asked).toHaveLength(3);
  });
});
