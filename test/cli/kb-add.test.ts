import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isIP } from "node:net";
import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PageNetwork } from "../../src/common/page-fetcher.js";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";

let web: Server;
let port: number;
let dir: string;

const PAGE =
  "<html><head><title>Deploy guide</title><script>alert(1)</script></head><body><main>" +
  "<h1>Deploy guide</h1><p>Drain the <b>canary</b> before the rollout.</p><ul><li>check dashboards</li></ul>" +
  "</main></body></html>";

/** A page that tries to drive the terminal of whoever reads the kept document, or run script from it. */
const HOSTILE =
  "<html><head><title>Runbook\u001b]0;owned\u0007 \u001b[31mred\u202Eeulb\u0085</title></head><body>" +
  "<p>Step\u001b[2J one&#27;[1m &#x202e;here\u200b.</p>" +
  '<p><a href="javascript:alert(1)">run me</a> <a href="java\tscript:alert(2)">and me</a> ' +
  '<a href="data:text/html,x">data</a> <a href="https://docs.example.com/ok">kept</a> ' +
  '<a href="/relative">relative</a> <img src="javascript:alert(3)" alt="pic"></p></body></html>';

beforeAll(async () => {
  web = createServer((req, res) => {
    if (req.url === "/ops/Deploy%20Guide.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    } else if (req.url === "/bounce") {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/ops/Deploy%20Guide.html` }).end();
    } else if (req.url === "/private/notes.html?token=s3cret&view=1") {
      res
        .writeHead(200, { "content-type": "text/html" })
        .end(`<h1>Notes</h1><p>${req.headers.authorization}</p>`);
    } else if (req.url === "/hostile.html") {
      res.writeHead(200, { "content-type": "text/html" }).end(HOSTILE);
    } else if (req.url === "/hostile.txt") {
      res.writeHead(200, { "content-type": "text/plain" }).end("plain \u001b[2Jcleared\u202Eevil\n");
    } else if (req.url === "/to-rebind") {
      res.writeHead(302, { location: "http://rebind.example.test/secret" }).end();
    } else if (req.url === "/logo.png") {
      res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  port = (web.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => web.close(resolve));
});

beforeEach(async () => {
  dir = await tempDir("mcpterm-kb-add-");
  await mkdir(path.join(dir, "knowledge_base"));
  await writeFile(path.join(dir, "knowledge_base", "existing.md"), "# Existing\n\nold words\n");
});

const webPort = (): number => port;

/**
 * The web as a test needs it: `wiki.example.test` is a public address (TEST-NET-3) whose
 * connections reach the local server, and `intranet.example.test` a private one. The address
 * guard itself runs unchanged on what this resolves.
 */
const network: PageNetwork = {
  lookup: (hostname) => {
    if (isIP(hostname)) return Promise.resolve([{ address: hostname }]);
    if (hostname === "wiki.example.test") return Promise.resolve([{ address: "203.0.113.7" }]);
    if (hostname === "intranet.example.test") return Promise.resolve([{ address: "10.1.2.3" }]);
    return Promise.reject(
      Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }),
    );
  },
  route: (address, port) =>
    address === "203.0.113.7" ? { address: "127.0.0.1", port: webPort() } : { address, port },
};

const kb = (...args: string[]) => runInProcess(["kb", ...args], { cwd: dir, env: cleanEnv(), network });

describe("mcpterm kb add <file>", () => {
  it("copies a file into the knowledge folder and indexes it at once", async () => {
    const original = "# Runbook\r\n\r\nRestart the ingest worker when the queue stalls.\r\n";
    await writeFile(path.join(dir, "runbook.md"), original);
    const added = await kb("add", "runbook.md");
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(
      /^Added runbook\.md \(\d+ B\) to the knowledge base; indexed in \d+ ms\.\n$/,
    );
    // A copy, byte for byte (its line ends kept).
    expect(await readFile(path.join(dir, "knowledge_base", "runbook.md"), "utf8")).toBe(original);
    const search = await kb("search", "ingest worker", "--json");
    expect(JSON.parse(search.stdout)).toMatchObject([{ path: "runbook.md" }]);
  });

  it("adds under another name with --as, into a subfolder", async () => {
    await writeFile(path.join(dir, "notes.txt"), "quarterly failover drill\n");
    const added = await kb("add", "notes.txt", "--as", "drills/failover.txt", "--json");
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ path: "drills/failover.txt", replaced: false });
  });

  it("refuses to overwrite without --force, and replaces with it", async () => {
    await writeFile(path.join(dir, "existing.md"), "# Existing\n\nnew words\n");
    const refused = await kb("add", "existing.md");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "mcpterm: existing.md is in the knowledge folder already; pass --force to replace it, or --as <name> to add this under another name.\n",
    );
    const forced = await kb("add", "existing.md", "--force");
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^Replaced existing\.md/);
    expect(await readFile(path.join(dir, "knowledge_base", "existing.md"), "utf8")).toContain("new words");
  });

  it.each([
    ["a missing file", ["add", "nope.md"], "There is no file nope.md; check the path."],
    ["a folder", ["add", "."], ". is a folder; add its files one at a time."],
    [
      "a name that escapes",
      ["add", "plain.txt", "--as", "../outside.txt"],
      'leads outside the knowledge folder (it uses "..")',
    ],
    ["an absolute name", ["add", "plain.txt", "--as", "/tmp/x.txt"], "is absolute"],
    ["a hidden name", ["add", "plain.txt", "--as", ".env"], "names a hidden file or folder"],
    ["a name with a BiDi override", ["add", "plain.txt", "--as", "invoice\u202Etxt.md"], "⟨U+202E⟩"],
    ["a name with an escape", ["add", "plain.txt", "--as", "x\u001b[2J.md"], "holds control or invisible"],
    ["a name with a C1 control", ["add", "plain.txt", "--as", "x\u009b2J.md"], "⟨U+009B⟩"],
    ["a binary file", ["add", "image.png"], "image.png is a binary file"],
    ["a file with NUL bytes", ["add", "blob.txt"], "blob.txt is a binary file"],
    ["a file too big", ["add", "huge.txt"], "over the knowledge base's 2.0 MB limit"],
    ["two sources", ["add", "a.md", "b.md"], "mcpterm kb add takes one <path|url>"],
    ["--force elsewhere", ["index", "--force"], "--as, --force and --yes only apply to mcpterm kb add"],
  ])("refuses %s with exit 2 and one sentence", async (_what, args, message) => {
    await writeFile(path.join(dir, "plain.txt"), "plain\n");
    await writeFile(path.join(dir, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await writeFile(path.join(dir, "blob.txt"), Buffer.from([0x61, 0, 0x62]));
    await writeFile(path.join(dir, "huge.txt"), "x".repeat(2 * 1024 * 1024 + 1));
    const run = await kb(...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(await readdir(path.join(dir, "knowledge_base"))).toEqual(["existing.md"]);
  });

  it("refuses a name under a file with exit 2 and one sentence", async () => {
    await writeFile(path.join(dir, "plain.txt"), "plain\n");
    await writeFile(path.join(dir, "knowledge_base", "afile"), "a file\n");
    for (const name of ["afile/x.md", "afile/deeper/x.md"]) {
      const run = await kb("add", "plain.txt", "--as", name);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `mcpterm: afile is a file in the knowledge folder, so it cannot hold ${name}; choose another name with --as.\n`,
      );
    }
    expect(await readFile(path.join(dir, "knowledge_base", "afile"), "utf8")).toBe("a file\n");
  });

  it("refuses a name that leads out through a symlinked folder", async () => {
    const outside = await tempDir("mcpterm-kb-outside-");
    await symlink(outside, path.join(dir, "knowledge_base", "linked"));
    await writeFile(path.join(dir, "plain.txt"), "plain\n");
    const run = await kb("add", "plain.txt", "--as", "linked/plain.txt");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("through a symlink");
    expect(await readdir(outside)).toEqual([]);
  });
});

describe("mcpterm kb add <url>", () => {
  it("fetches a page, keeps it as Markdown and indexes it at once", async () => {
    const url = "http://wiki.example.test/ops/Deploy%20Guide.html";
    const added = await kb("add", url, "--yes");
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^Added deploy-guide\.md/);
    const kept = await readFile(path.join(dir, "knowledge_base", "deploy-guide.md"), "utf8");
    expect(kept).toMatch(/^# Deploy guide\n\nDrain the \*\*canary\*\* before the rollout\./);
    expect(kept).toMatch(/^-\s+check dashboards$/m);
    expect(kept).toContain(`Source: ${url}`);
    expect(kept).not.toContain("<");
    expect(kept).not.toContain("alert");
    const search = await kb("search", "canary rollout", "--json");
    expect(JSON.parse(search.stdout)).toMatchObject([{ path: "deploy-guide.md" }]);
  });

  it("keeps no terminal controls, BiDi overrides or script links from a page", async () => {
    const run = await kb("add", "http://wiki.example.test/hostile.html", "--yes");
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const kept = await readFile(path.join(dir, "knowledge_base", "hostile.md"), "utf8");
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point.
    expect(kept).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202a-\u202e\u2066-\u2069]/);
    expect(kept).not.toMatch(/javascript|java\s*script|data:/i);
    expect(kept.startsWith("# Runbook redeulb\n\nStep[2J one[1m here.\n\n")).toBe(true);
    expect(kept).toContain(
      "\n\nrun me and me data [kept](https://docs.example.com/ok) [relative](/relative) pic\n",
    );
    const text = await kb("add", "http://wiki.example.test/hostile.txt", "--yes");
    expect(text.code).toBe(0);
    expect(await readFile(path.join(dir, "knowledge_base", "hostile.txt"), "utf8")).toBe(
      "plain clearedevil\n",
    );
  });

  it("keeps no credentials or query string in the Source line", async () => {
    const run = await kb(
      "add",
      "http://ana:pa%40ss@wiki.example.test/private/notes.html?token=s3cret&view=1#top",
      "--yes",
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const kept = await readFile(path.join(dir, "knowledge_base", "notes.md"), "utf8");
    // The credentials were sent, as Basic auth, and are in the page only because it echoes them.
    expect(kept).toContain(`Basic ${Buffer.from("ana:pa@ss").toString("base64")}`);
    expect(kept).toMatch(
      /\nSource: http:\/\/wiki\.example\.test\/private\/notes\.html \(added \d{4}-\d\d-\d\d\)\n$/,
    );
    expect(kept).not.toMatch(/s3cret|ana:|pa%40ss|view=1|#top/);
  });

  it("needs --yes when nobody can be asked (exit 3), and fetches nothing", async () => {
    const run = await kb("add", "http://wiki.example.test/ops/Deploy%20Guide.html");
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      "mcpterm: Fetching http://wiki.example.test/ops/Deploy%20Guide.html is an external call and needs your yes: run this at a terminal to be asked, or pass --yes.\n",
    );
    expect(await readdir(path.join(dir, "knowledge_base"))).toEqual(["existing.md"]);
  });

  it.each([
    ["a private address", "http://intranet.example.test/page"],
    ["a public page redirecting to loopback", "http://wiki.example.test/bounce"],
    ["IPv4-compatible IPv6 with a dotted tail", "http://[::127.0.0.1]/"],
    ["IPv4-compatible IPv6", "http://[::7f00:1]/"],
    ["NAT64 IPv6 holding loopback", "http://[64:ff9b::7f00:1]/"],
    ["6to4 IPv6 holding loopback", "http://[2002:7f00:1::]/"],
  ])("refuses %s through the address guard (exit 3)", async (_what, url) => {
    const run = await kb("add", url, "--yes");
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("a loopback, private or link-local address, which kb add never fetches");
    expect(await readdir(path.join(dir, "knowledge_base"))).toEqual(["existing.md"]);
  });

  it("refuses a binary page (exit 1) and a page that is not there (exit 1)", async () => {
    const binary = await kb("add", "http://wiki.example.test/logo.png", "--yes");
    expect(binary.code).toBe(1);
    expect(binary.stderr).toContain("image/png");
    const missing = await kb("add", "http://wiki.example.test/gone", "--yes");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("answered HTTP 404");
  });

  describe("a name that answers public to the guard, then private (DNS rebinding)", () => {
    let inside: Server;
    let insidePort: number;
    let insideRequests: string[];
    let lookups: string[];
    /** rebind.example.test: 203.0.113.8 (public, routed to the local site) once, 127.0.0.1 after. */
    const rebinding: PageNetwork = {
      lookup: (hostname) => {
        if (isIP(hostname)) return Promise.resolve([{ address: hostname }]);
        lookups.push(hostname);
        return Promise.resolve([{ address: lookups.length === 1 ? "203.0.113.8" : "127.0.0.1" }]);
      },
      route: (address, to) =>
        address === "203.0.113.8"
          ? { address: "127.0.0.1", port: webPort() }
          : address === "127.0.0.1" && to === 80
            ? { address: "127.0.0.1", port: insidePort }
            : { address, port: to },
    };
    const add = (url: string) =>
      runInProcess(["kb", "add", url, "--yes"], { cwd: dir, env: cleanEnv(), network: rebinding });

    beforeAll(async () => {
      inside = createServer((req, res) => {
        insideRequests.push(req.url ?? "");
        res.writeHead(200, { "content-type": "text/html" }).end("<h1>Inside secret</h1>");
      });
      await new Promise<void>((resolve) => inside.listen(0, "127.0.0.1", resolve));
      insidePort = (inside.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((resolve) => inside.close(resolve));
    });
    beforeEach(() => {
      insideRequests = [];
      lookups = [];
    });

    it("resolves the name once and connects to the address it checked", async () => {
      const run = await add("http://rebind.example.test/ops/Deploy%20Guide.html");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(lookups).toEqual(["rebind.example.test"]);
      expect(insideRequests).toEqual([]);
      const kept = await readFile(path.join(dir, "knowledge_base", "deploy-guide.md"), "utf8");
      expect(kept).toContain("Drain the **canary**");
    });

    it("checks the name again on a redirect, and refuses its private answer (exit 3)", async () => {
      const run = await add("http://rebind.example.test/to-rebind");
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("which kb add never fetches");
      expect(lookups).toEqual(["rebind.example.test", "rebind.example.test"]);
      expect(insideRequests).toEqual([]);
    });
  });

  it.each(["127.0.0.1", "[::7f00:1]"])(
    "never fetches loopback (%s) from the real binary, whatever the environment says",
    async (host) => {
      const run = await runCli(["kb", "add", `http://${host}:${port}/ops/Deploy%20Guide.html`, "--yes"], {
        cwd: dir,
        env: cleanEnv({ MCPTERM_FETCH_ALLOW_PRIVATE: "1" }),
      });
      expect(run.code).toBe(3);
      expect(run.stderr).toContain("which kb add never fetches");
    },
  );
});

describe("mcpterm kb remove", () => {
  it("removes a document and its passages", async () => {
    const run = await kb("remove", "existing.md");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Removed existing\.md/);
    expect(await readdir(path.join(dir, "knowledge_base"))).toEqual([]);
    expect((await kb("search", "old words", "--json")).stdout).toBe("[]\n");
  });

  it.each(["escape.md", "knowledge_base/escape.md"])(
    "removes a symlink that points out of the folder as %s, and only the link",
    async (given) => {
      const outside = await tempDir("mcpterm-kb-remove-outside-");
      await writeFile(path.join(outside, "secret.md"), "# Secret\n");
      await symlink(path.join(outside, "secret.md"), path.join(dir, "knowledge_base", "escape.md"));
      const run = await kb("remove", given);
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Removed escape\.md/);
      expect(await readdir(path.join(dir, "knowledge_base"))).toEqual(["existing.md"]);
      expect(await readFile(path.join(outside, "secret.md"), "utf8")).toBe("# Secret\n");
    },
  );

  it("still refuses a path that leads out through a symlinked folder", async () => {
    const outside = await tempDir("mcpterm-kb-remove-folder-");
    await writeFile(path.join(outside, "kept.md"), "# Kept\n");
    await symlink(outside, path.join(dir, "knowledge_base", "linked"));
    const run = await kb("remove", "linked/kept.md");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("through a symlink");
    expect(await readFile(path.join(outside, "kept.md"), "utf8")).toBe("# Kept\n");
  });

  it("takes the path as typed from the project folder too", async () => {
    const run = await kb("remove", "knowledge_base/existing.md");
    expect(run.code).toBe(0);
  });

  it.each([
    ["../mcp.config.json", "leads outside the knowledge folder"],
    ["missing.md", "There is no document missing.md"],
  ])("refuses %s with exit 2", async (given, message) => {
    await writeFile(path.join(dir, "mcp.config.json"), "{}");
    const run = await kb("remove", given);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(await readFile(path.join(dir, "mcp.config.json"), "utf8")).toBe("{}");
  });
});
