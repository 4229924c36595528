import type { Tool } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import {
  APP_ONLY_REASON,
  NEEDS_TASKS_REASON,
  offersToolTasks,
  toolWithholdReason,
} from "../../src/core/policy/tool-withhold.js";

const tool = (extra: Partial<Tool>): Tool => ({
  name: "t",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  ...extra,
});

describe("toolWithholdReason", () => {
  it.each<[string, Partial<Tool>, string | undefined]>([
    ["an ordinary tool", {}, undefined],
    ["taskSupport required", { execution: { taskSupport: "required" } }, NEEDS_TASKS_REASON],
    ["taskSupport optional: called as a plain call", { execution: { taskSupport: "optional" } }, undefined],
    ["taskSupport forbidden", { execution: { taskSupport: "forbidden" } }, undefined],
    ["visible to the app only", { _meta: { ui: { visibility: ["app"] } } }, APP_ONLY_REASON],
    ["visible to the model and the app", { _meta: { ui: { visibility: ["model", "app"] } } }, undefined],
    ["visible to the model only", { _meta: { ui: { visibility: ["model"] } } }, undefined],
    ["an empty visibility, which means both", { _meta: { ui: { visibility: [] } } }, undefined],
    ["a UI resource without visibility", { _meta: { ui: { resourceUri: "ui://x/view.html" } } }, undefined],
    ["_meta without ui", { _meta: { "io.example/flag": true } }, undefined],
    [
      "a property name hiding characters (the schema check still applies)",
      { inputSchema: { type: "object", properties: { "q\u200b": { type: "string" } } } },
      "a property name in its input schema holds hidden characters",
    ],
  ])("%s", (_name, extra, reason) => {
    expect(toolWithholdReason(tool(extra))).toBe(reason);
  });
});

describe("a tool that requires a task", () => {
  it("is offered where its server runs tasks for tool calls, and withheld where it does not", () => {
    const slow = tool({ execution: { taskSupport: "required" } });
    expect(toolWithholdReason(slow, undefined, true)).toBeUndefined();
    expect(toolWithholdReason(slow, undefined, false)).toBe(NEEDS_TASKS_REASON);
  });

  it("offersToolTasks reads capabilities.tasks.requests.tools.call", () => {
    expect(offersToolTasks({ tasks: { requests: { tools: { call: {} } } } })).toBe(true);
    expect(offersToolTasks({ tasks: { list: {} } })).toBe(false);
    expect(offersToolTasks({ tools: {} })).toBe(false);
    expect(offersToolTasks(undefined)).toBe(false);
  });
});
