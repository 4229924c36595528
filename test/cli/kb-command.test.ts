import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";
import { runInProcess } from "../support/run-in-process.js";

let dir: string;
const cli = (...args: string[]) => runInProcess(args, { cwd: dir, env: cleanEnv() });
/** The real binary, for its exit codes. */
const binary = (...args: string[]) => runCli(args, { cwd: dir, env: cleanEnv() });

beforeAll(async () => {
  dir = await tempDir();
  await mkdir(path.join(dir, "knowledge_base"));
  await writeFile(
    path.join(dir, "knowledge_base", "runbook.md"),
    "# Runbook\n\n## Restarting the billing service\n\nRun `systemctl restart billing` and watch the queue drain.\n\n## Rotating keys\n\nKeys rotate every 90 days through the vault.\n",
  );
  await writeFile(
    path.join(dir, "knowledge_base", "笔记.md"),
    "# 部署\n\n## 回滚\n\n回滚时先停止流量，再恢复上一个版本的镜像。\n",
  );
});

describe("mcpterm kb", () => {
  it("redacts a key in --json output as in text, also where it starts a line (after a \\n escape)", async () => {
    const own = await tempDir();
    await mkdir(path.join(own, "knowledge_base"));
    const token = `ghp_${"abcdefghij".repeat(3)}123456`;
    await writeFile(path.join(own, "knowledge_base", "keys.md"), `rollback notes\n${token} rollback\n`);
    const json = await runInProcess(["kb", "search", "rollback", "--json"], { cwd: own, env: cleanEnv() });
    expect(json.code).toBe(0);
    expect(json.stdout).toContain("[REDACTED]");
    expect(json.stdout).not.toContain(token);
  });

  it("indexes the folder and reports what it did", async () => {
    const run = await cli("kb", "index");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Indexed 2 files \(\d+ chunks\) in .*knowledge_base: 2 added, 0 updated, 0 removed, 0 unchanged/,
    );
    const again = await cli("kb", "index", "--json");
    expect(JSON.parse(again.stdout)).toMatchObject({ added: [], unchanged: 2, stats: { files: 2 } });
  });

  it("returns cited passages with line ranges as JSON, in English and Chinese", async () => {
    const english = await cli("kb", "search", "restart", "billing", "--json");
    expect(english.code).toBe(0);
    const [hit] = JSON.parse(english.stdout) as Array<{
      path: string;
      startLine: number;
      endLine: number;
      heading: string;
      score: number;
      text: string;
    }>;
    expect(hit).toMatchObject({
      path: "runbook.md",

      heading: "Runbook > Restarting the billing service",
    });
    expect(hit?.text).toContain("systemctl restart billing");
    // The cited line range holds exactly the passage's text.
    const lines = (await readFile(path.join(dir, "knowledge_base", "runbook.md"), "utf8")).split("\n");
    expect(
      lines
        .slice((hit?.startLine ?? 0) - 1, hit?.endLine)
        .join("\n")
        .trim(),
    ).toBe(hit?.text.trim());
    expect(hit?.score).toBeGreaterThan(0);

    const chinese = await cli("kb", "search", "怎么回滚", "--k", "1", "--json");
    const hits = JSON.parse(chinese.stdout) as Array<{ path: string; text: string }>;
    expect(hits).toHaveLength(1);
    expect(hits[0]?.path).toBe("笔记.md");
  });

  it("prints stats, and says so when the folder is empty", async () => {
    const stats = await cli("kb", "stats", "--json");
    expect(JSON.parse(stats.stdout)).toMatchObject({ files: 2 });
    // Text says when in local time to the minute, as /kb does; JSON keeps the ISO form.
    expect(JSON.parse(stats.stdout)).toMatchObject({ updatedAt: expect.stringMatching(/T.*Z$/) as unknown });
    expect((await cli("kb", "stats")).stdout).toMatch(/, updated \d{4}-\d\d-\d\d \d\d:\d\d \(/);
    const empty = await runInProcess(["kb", "stats"], { cwd: await tempDir(), env: cleanEnv() });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toMatch(/is empty: put \.md or \.txt files there/);
  });

  it("is a usage error without a query or with a bad --k", async () => {
    expect((await binary("kb", "search")).code).toBe(2);
    const badK = await binary("kb", "search", "x", "--k", "0");
    expect(badK.code).toBe(2);
    expect(badK.stderr).toMatch(/--k must be a whole number/);
  });

  it("searches for a word that starts with - given after --, and says how when it is not", async () => {
    const found = await binary("kb", "search", "--json", "--", "-restart", "billing");
    expect(found.code).toBe(0);
    expect((JSON.parse(found.stdout) as Array<{ path: string }>)[0]?.path).toBe("runbook.md");
    const dashed = await binary("kb", "search", "-restart");
    expect(dashed.code).toBe(2);
    expect(dashed.stderr).toContain("a query or path that starts with - goes after --");
  });
});

describe("a cloned project whose knowledge folder leads out of it", () => {
  it("is not read: a knowledge_base symlinked elsewhere is exit 2 naming --kb, and --kb reads it on purpose", async () => {
    const project = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(outside, "credentials.md"), "# Credentials\n\nThe launch code is 0451.\n");
    await symlink(outside, path.join(project, "knowledge_base"));
    const run = await runCli(["kb", "search", "launch", "code"], { cwd: project, env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "The knowledge folder knowledge_base leads outside this project (it is a symlink); mcpterm does not read it — pass --kb <dir> to use a folder outside on purpose, or --no-kb.",
    );
    expect(run.stdout).not.toContain("0451");
    const chosen = await runInProcess(["kb", "search", "launch", "code", "--kb", outside], {
      cwd: project,
      env: cleanEnv(),
    });
    expect(chosen.stdout).toContain("0451");
  });

  it("does not write its index through a symlinked .mcpterm/kb", async () => {
    const project = await tempDir();
    const victim = await tempDir();
    await mkdir(path.join(project, ".mcpterm"));
    await symlink(victim, path.join(project, ".mcpterm", "kb"));
    await writeFile(path.join(victim, "kb-index.json"), "precious");
    const run = await runCli(["kb", "index"], { cwd: project, env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "mcpterm: .mcpterm/kb is a symlink; mcpterm does not write its traces, sessions or index through a link a project may have brought — remove the link (or run mcpterm from another folder).\n",
    );
    expect(await readFile(path.join(victim, "kb-index.json"), "utf8")).toBe("precious");
  });

  it("refuses a .mcpterm/kb linked into the knowledge folder, which would index the index", async () => {
    const project = await tempDir();
    await mkdir(path.join(project, "knowledge_base", "sub"), { recursive: true });
    await writeFile(path.join(project, "knowledge_base", "sub", "a.md"), "# A\n\nalpha\n");
    await mkdir(path.join(project, ".mcpterm"));
    await symlink("../knowledge_base/sub", path.join(project, ".mcpterm", "kb"));
    const run = await runCli(["kb", "index"], { cwd: project, env: cleanEnv() });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcpterm: \.mcpterm\/kb is a symlink; /);
    expect(await readdir(path.join(project, "knowledge_base", "sub"))).toEqual(["a.md"]);
  });
});

describe("two mcpterm processes indexing one project at once", () => {
  it("leave a whole index that the next run loads without a rebuild, and no lock", async () => {
    const project = await tempDir();
    const notes = path.join(project, "knowledge_base");
    await mkdir(notes);
    const write = (round: number) =>
      Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          writeFile(
            path.join(notes, `note-${i}.md`),
            `# Note ${i}\n\nRound ${round}: the keeper of pier ${i} logged tide ${round * 100 + i}.\n`,
          ),
        ),
      );
    await write(0);
    const index = () => runCli(["kb", "index", "--json"], { cwd: project, env: cleanEnv() });
    await index();
    for (let round = 1; round <= 2; round++) {
      await write(round);
      const runs = await Promise.all([index(), index()]);
      for (const run of runs) {
        expect(run.code).toBe(0);
        expect(run.stderr).toBe("");
      }
    }
    const names = await readdir(path.join(project, ".mcpterm", "kb"));
    expect(names).not.toContain("kb.lock");
    expect(names.filter((name) => name.endsWith(".tmp"))).toEqual([]);
    const after = await index();
    expect(after.stderr).toBe("");
    expect(JSON.parse(after.stdout)).toMatchObject({
      added: [],
      updated: [],
      unchanged: 24,
      stats: { files: 24 },
    });
    const search = await runCli(["kb", "search", "pier", "7", "tide", "--json"], {
      cwd: project,
      env: cleanEnv(),
    });
    expect((JSON.parse(search.stdout) as Array<{ path: string; text: string }>)[0]).toMatchObject({
      path: "note-7.md",
      text: expect.stringContaining("Round 2") as unknown,
    });
  });
});
