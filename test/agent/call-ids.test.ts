import { describe, expect, it } from "vitest";
import { withUniqueIds } from "../../src/core/agent/call-ids.js";
import type { ChatMessage, ToolCallRequest } from "../../src/core/llm/types.js";

const call = (id: string): ToolCallRequest => ({ id, name: "fixture__echo", arguments: "{}" });
const ids = (calls: readonly ToolCallRequest[]): string[] => calls.map((renamed) => renamed.id);

describe("withUniqueIds", () => {
  it("keeps the first call under an id and gives a later one the first free suffix", () => {
    const conversation: ChatMessage[] = [{ role: "assistant", content: null, toolCalls: [call("a")] }];
    expect(ids(withUniqueIds([call("a"), call("b"), call("b"), call("a_2")], conversation))).toEqual([
      "a_3",
      "b",
      "b_2",
      "a_2",
    ]);
  });

  it("remembers the ids a compaction took out of the conversation", () => {
    const taken = new Set<string>();
    const first: ChatMessage[] = [];
    expect(ids(withUniqueIds([call("call_0")], first, taken))).toEqual(["call_0"]);
    // The summary replaced the turn that had call_0: the conversation no longer shows it.
    expect(ids(withUniqueIds([call("call_0")], [{ role: "user", content: "summary" }], taken))).toEqual([
      "call_0_2",
    ]);
    expect([...taken]).toEqual(["call_0", "call_0_2"]);
  });
});
