import { describe, expect, it } from "vitest";
import { tokenize } from "../../src/core/kb/tokenizer.js";

describe("tokenize", () => {
  it.each([
    ["Servers LOGGING to stderr", ["server", "log", "stderr"]],
    ["What is the answer?", ["answer"]],
    ["café Naïve", ["cafe", "naiv"]],
    ["the user's config", ["user", "config"]],
    ["readOnlyHint", ["readonlyhint", "read", "hint"]],
    ["search_knowledge_base", ["searchknowledgebase", "search", "knowledg", "base"]],
    ["HTTPServer v2 utf8", ["httpserver", "http", "server", "v2", "utf8"]],
    ["a b c 7", ["7"]],
    ["？！…… ---", []],
    ["", []],
  ])("%j -> %j", (text, terms) => {
    expect(tokenize(text)).toEqual(terms);
  });

  it("segments Chinese into words and drops function and question words", () => {
    expect(tokenize("日志应该写到标准错误吗？")).toEqual(["日志", "写到", "标准", "错误"]);
  });

  it("gives bigrams where the segmenter leaves single characters", () => {
    expect(tokenize("调试")).toContain("调试");
  });

  it("handles mixed English and Chinese text", () => {
    expect(tokenize("MCP服务器的stdout只能输出JSON-RPC")).toEqual(
      expect.arrayContaining(["mcp", "服务", "stdout", "输出", "json", "rpc"]),
    );
  });

  it("folds full-width characters", () => {
    expect(tokenize("ＭＣＰ　Ｓｅｒｖｅｒ")).toEqual(["mcp", "server"]);
  });
});
