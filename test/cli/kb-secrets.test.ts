import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/fixtures.js";
import { cleanEnv, runCli } from "../support/run-cli.js";

const KEY = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn";

describe("a secret in a knowledge-base file", () => {
  it("is neither searchable, by its letters or its start, nor kept in the index files", async () => {
    const cwd = await tempDir();
    await mkdir(path.join(cwd, "knowledge_base"));
    await writeFile(
      path.join(cwd, "knowledge_base", "deploy.md"),
      `# Deploy runbook\n\nThe staging key is ${KEY} and the rollout is blue-green.\n`,
    );
    await writeFile(
      path.join(cwd, "knowledge_base", "keys.md"),
      [
        "# Keys",
        "",
        "-----BEGIN RSA PRIVATE KEY-----",
        `MIIEowIBAAKCAQEA${"A".repeat(60)}`,
        "B".repeat(64),
        `${"C".repeat(40)}==`,
        "-----END RSA PRIVATE KEY-----",
        "",
        "## Rotation",
        "",
        "The rotation is quarterly.",
        "",
      ].join("\n"),
    );
    // The same key split by a zero-width space, which the shown passage reads through.
    await writeFile(
      path.join(cwd, "knowledge_base", "split.md"),
      "# Split\n\nzw: sk-proj-QRSTUVWX\u200bYZqrstuvwxyzQRSTUVWXYZqrstuvwxyz\n",
    );
    const kb = (...args: string[]) => runCli(["kb", ...args], { cwd, env: cleanEnv() });
    expect((await kb("index")).code).toBe(0);
    // The file is found by its words, the key shown taken out.
    const found = await kb("search", "staging rollout");
    expect(found.stdout).toContain("deploy.md");
    expect(found.stdout).not.toContain("ABCDEFGH");
    // Not by the key, nor by its start: the index never held it.
    for (const probe of ["abcdefghijklm", "sk-proj-ABCDEFGH", KEY])
      expect((await kb("search", probe)).stdout, probe).not.toContain("deploy.md");
    for (const probe of ["YZqrstuvwxyz", "QRSTUVWX"])
      expect((await kb("search", probe)).stdout, probe).not.toContain("split.md");
    // A private key's block is taken out line for line: the passages after it keep their lines.
    const after = await kb("search", "rotation quarterly");
    expect(after.stdout).toMatch(/keys\.md:9-11\b/);
    const indexDir = path.join(cwd, ".mcpterm", "kb");
    for (const name of await readdir(indexDir)) {
      const bytes = await readFile(path.join(indexDir, name)).catch(() => Buffer.alloc(0));
      expect(bytes.includes("ABCDEFGHIJKLM"), name).toBe(false);
      expect(bytes.includes("abcdefghijklm"), name).toBe(false);
    }
  });
});
