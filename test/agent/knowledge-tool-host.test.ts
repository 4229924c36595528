import { describe, expect, it } from "vitest";
import { KNOWLEDGE_TOOL_NAME, KnowledgeToolHost } from "../../src/core/agent/knowledge-tool-host.js";
import type { KnowledgeBase } from "../../src/core/kb/index.js";

/** A knowledge base holding `chunks()` passages, as its stats say. */
function holding(chunks: () => number): KnowledgeBase {
  return {
    stats: () => ({ files: 1, chunks: chunks(), indexBytes: 0, updatedAt: undefined, dir: "knowledge_base" }),
    retrieve: () => Promise.resolve([]),
  } as unknown as KnowledgeBase;
}

describe("KnowledgeToolHost", () => {
  it("offers its search only while the knowledge base holds something", () => {
    let chunks = 0;
    const host = new KnowledgeToolHost(holding(() => chunks));
    expect(host.list()).toEqual([]);
    // A document added in the session (/kb add) makes it worth searching.
    chunks = 3;
    expect(host.list().map((tool) => tool.name)).toEqual([KNOWLEDGE_TOOL_NAME]);
  });
});
