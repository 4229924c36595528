import { describe, expect, it } from "vitest";
import { describeRelevance, openKnowledgeBase, plainExcerpt } from "../../src/core/kb/index.js";
import { makeWorkspace } from "./helpers.js";

/** A team's runbooks, where everyday words such as "one" are rare enough to look significant. */
const FILES = {
  "deploy-runbook.md": `# Deploy runbook

## Rollback

If the health check fails after a deploy, roll back with \`deployctl rollback --to previous\`.
Only one release may be rolled back at a time; **never** skip the database migration check.

## Canary

Ship to the canary pool first and watch the error rate for ten minutes.
`,
  "mixed.md": `# Mixed notes

- Rotate the staging API keys every quarter with [the vault guide](https://example.com/vault).
- The on-call phone number is in the pager app.

> Tools and servers: see the MCP servers page.
`,
  "zh/风险.md": "# 风险等级\n\n危险工具会修改配置、删除数据或者执行命令，每次调用前都要用户批准。\n",
};

const UNRELATED = [
  "ok, one more thing",
  "hello there",
  "thanks, that works!",
  "what is the weather like in Paris tomorrow?",
  '{"name":"read_file","arguments":{"path":"/etc/passwd"}}',
  "call the read_text tool with the text hi",
  "can you tell me a joke?",
  "你好，今天天气怎么样？",
];

describe("the relevance floor", () => {
  it("gives an unrelated message no passages at all", async () => {
    const { kbDir, indexDir } = await makeWorkspace(FILES);
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    for (const message of UNRELATED) expect([message, kb.search(message)]).toEqual([message, []]);
  });

  it("still finds what the question is about, saying which words matched and how strongly", async () => {
    const { kbDir, indexDir } = await makeWorkspace(FILES);
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    const [rollback] = kb.search("How do I roll back a failed deploy?");
    expect(rollback).toMatchObject({ path: "deploy-runbook.md", heading: "Deploy runbook > Rollback" });
    expect(rollback?.matched).toEqual(expect.arrayContaining(["roll", "failed", "deploy"]));
    expect(rollback?.relevance).toBeGreaterThan(0.7);
    expect(describeRelevance(rollback?.relevance ?? 0)).toMatch(/^strong \d+%$/);

    const [keys] = kb.search("rotating staging keys");
    expect(keys).toMatchObject({ path: "mixed.md", matched: ["rotating", "staging", "keys"] });
    const [zh] = kb.search("危险工具需要批准吗");
    expect(zh?.path).toBe("zh/风险.md");
    expect(zh?.matched).toEqual(expect.arrayContaining(["危险", "工具", "批准"]));
  });

  it("gives a pasted document no passage that holds only a sliver of it, however rare its words", async () => {
    const { kbDir, indexDir } = await makeWorkspace(FILES);
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    // Sixty words the knowledge base never mentions, and two rare ones of the canary passage: as
    // evidence those two are plenty, but they are about 2 % of the message's weight.
    const unrelated = Array.from(
      { length: 60 },
      (_, index) =>
        `feature${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}`,
    );
    const note = `Release notes: ${unrelated.join(" ")}. Also: canary pool.`;
    expect(kb.search(note)).toEqual([]);
    // The same two words in a short message are what it is about.
    expect(kb.search("canary pool")[0]?.heading).toBe("Deploy runbook > Canary");
  });

  it("does not name a common word among the matched ones: it weighs nothing", async () => {
    const { kbDir, indexDir } = await makeWorkspace({
      "env.md": "# Environment\n\nCall get-env to read one variable of the env; call it again for another.\n",
    });
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    const [hit] = kb.search("CALL get-env {}");
    expect(hit?.path).toBe("env.md");
    expect(hit?.matched).toEqual(["env"]);
  });

  it("keeps every passage when the floor is turned off (minRelevance 0), for evaluation", async () => {
    const { kbDir, indexDir } = await makeWorkspace(FILES);
    const kb = await openKnowledgeBase({ dir: kbDir, indexDir });
    await kb.refresh();
    expect(kb.search("ok, one more thing", { minRelevance: 0 }).map((hit) => hit.path)).toContain(
      "deploy-runbook.md",
    );
  });
});

describe("describeRelevance", () => {
  it.each([
    [1, "strong 100%"],
    [0.7, "strong 70%"],
    [0.5, "good 50%"],
    [0.26, "weak 26%"],
    [Number.NaN, "weak 0%"],
  ])("%s -> %s", (value, text) => expect(describeRelevance(value)).toBe(text));
});

describe("plainExcerpt", () => {
  it.each([
    ["# Deploy runbook\n\n## Rollback", "Deploy runbook\n\nRollback"],
    ["Use `deployctl` and **never** skip __it__", "Use deployctl and never skip it"],
    ["- see [the guide](https://x.y/z) ![logo](a.png)", "• see the guide logo"],
    ["> quoted\n```sh\nls\n```", "quoted\nls"],
    ["Title ##", "Title"],
  ])("%j -> %j", (markdown, text) => expect(plainExcerpt(markdown)).toBe(text));
});
