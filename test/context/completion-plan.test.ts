import { describe, expect, it } from "vitest";
import { completionPlan, type CatalogEntry } from "../../src/core/context/completion-plan.js";

const catalog: CatalogEntry[] = [
  {
    name: "everything",
    resources: [
      { name: "architecture.md", uri: "demo://resource/static/document/architecture.md" },
      { name: "secret", uri: "demo://token/hunter2" },
    ],
    resourceTemplates: [
      { name: "Dynamic Text Resource", uriTemplate: "demo://resource/dynamic/text/{resourceId}" },
      { name: "Dynamic Blob Resource", uriTemplate: "demo://resource/dynamic/blob/{resourceId}" },
    ],
    prompts: [
      { name: "simple-prompt" },
      {
        name: "completable-prompt",
        arguments: [
          { name: "department", required: true },
          { name: "name", required: true },
        ],
      },
    ],
  },
  { name: "fixture", resources: [], resourceTemplates: [], prompts: [] },
];
const redact = (text: string): string => text.replaceAll("hunter2", "[REDACTED]");

function words(before: string): string[] | undefined {
  const plan = completionPlan(before, catalog, redact);
  return plan?.kind === "words" ? plan.words : undefined;
}

function ask(before: string, values: string[] = []) {
  const plan = completionPlan(before, catalog, redact);
  if (plan?.kind !== "ask")
    throw new Error(`expected a question for the server, got ${JSON.stringify(plan)}`);
  return { server: plan.server, params: plan.params, words: plan.words(values) };
}

describe("what Tab offers for mentions and prompt arguments", () => {
  it("offers the servers that have resources after @, then their resources and templates", () => {
    expect(words("look at @")).toEqual(["@everything:"]);
    expect(words("@ev")).toEqual(["@everything:"]);
    expect(words("@everything:demo://resource/d")).toEqual([
      "@everything:demo://resource/static/document/architecture.md",
      "@everything:demo://token/[REDACTED]",
      "@everything:demo://resource/dynamic/text/",
      "@everything:demo://resource/dynamic/blob/",
    ]);
    expect(words("@fixture:")).toEqual([]);
    expect(words("@nope:x")).toEqual([]);
  });

  it("asks the server for a template variable, with what was typed of it", () => {
    const plan = ask("read @everything:demo://resource/dynamic/text/4", ["4", "42"]);
    expect(plan.server).toBe("everything");
    expect(plan.params).toEqual({
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "4" },
    });
    expect(plan.words).toContain("@everything:demo://resource/dynamic/text/42");
  });

  it("asks for a prompt's next argument, with the ones before it as context", () => {
    expect(ask("/everything:completable-prompt ").params).toEqual({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "department", value: "" },
    });
    const second = ask("/everything:completable-prompt Sales E", ["Eve", "San José x"]);
    expect(second.params).toEqual({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "name", value: "E" },
      context: { arguments: { department: "Sales" } },
    });
    expect(second.words).toEqual(["Eve", '"San José x"']);
    expect(ask("/everything:completable-prompt name=A", ["Alice"]).words).toEqual(["name=Alice"]);
    expect(ask("/everything:completable-prompt na").words).toEqual(["name="]);
  });

  it("cleans what the server suggests before it is typed into the prompt", () => {
    expect(ask("/everything:completable-prompt ", ["Eng\u001b[2J", "hunter2", " "]).words).toEqual([
      "Eng",
      "[REDACTED]",
    ]);
  });

  it("leaves the command name itself, and prompts without arguments, to the ordinary completion", () => {
    expect(completionPlan("/everything:comp", catalog, redact)).toBeUndefined();
    expect(completionPlan("/mcp logs ev", catalog, redact)).toBeUndefined();
    expect(completionPlan("please use fixture/w", catalog, redact)).toBeUndefined();
    expect(words("/everything:simple-prompt ")).toEqual([]);
    expect(words("/everything:completable-prompt Sales Eve ")).toEqual([]);
  });
});
