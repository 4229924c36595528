import { describe, expect, it } from "vitest";
import { newQuestions } from "../../src/core/mcp/task-input.js";
import { TaskList } from "../../src/core/mcp/task-list.js";
import { DEFAULT_POLL_MS, isFinal, readTask } from "../../src/core/mcp/task-state.js";
import { tasksResult } from "../../src/core/commands/tasks-command.js";

describe("readTask", () => {
  it("reads a 2026 task (fields at the top, pollIntervalMs) and a 2025 one (under task, pollInterval)", () => {
    expect(
      readTask({
        resultType: "task",
        taskId: "a",
        status: "working",
        statusMessage: "s",
        pollIntervalMs: 300,
      }),
    ).toEqual({ taskId: "a", status: "working", statusMessage: "s", pollMs: 300 });
    expect(readTask({ task: { taskId: "b", status: "input_required", pollInterval: 700 } })).toEqual({
      taskId: "b",
      status: "input_required",
      statusMessage: undefined,
      pollMs: 700,
    });
  });

  it("bounds what the server says: the poll interval, the message's length; refuses what is not a task", () => {
    expect(readTask({ taskId: "a", status: "working", pollIntervalMs: 0 })?.pollMs).toBe(50);
    expect(readTask({ taskId: "a", status: "working", pollIntervalMs: 3_600_000 })?.pollMs).toBe(10_000);
    expect(readTask({ taskId: "a", status: "working" })?.pollMs).toBe(DEFAULT_POLL_MS);
    expect(
      readTask({ taskId: "a", status: "working", statusMessage: "x".repeat(9000) })?.statusMessage,
    ).toHaveLength(500);
    expect(readTask({ taskId: "a", status: "sleeping" })).toBeUndefined();
    expect(readTask({ taskId: "", status: "working" })).toBeUndefined();
    expect(readTask({ taskId: "x".repeat(201), status: "working" })).toBeUndefined();
    expect(readTask(null)).toBeUndefined();
  });

  it("completed, failed and cancelled are final", () => {
    expect(
      ["working", "input_required", "completed", "failed", "cancelled"].map((s) => isFinal(s as never)),
    ).toEqual([false, false, true, true, true]);
  });
});

describe("newQuestions", () => {
  it("gives each question once: a task asks again in every poll until it has the answer", () => {
    const asked = {
      a: { method: "elicitation/create", params: { message: "?" } },
      b: { method: "roots/list" },
      bad: { nothing: true },
    };
    expect(newQuestions(asked, new Set())).toEqual([
      ["a", { method: "elicitation/create", params: { message: "?" } }],
      ["b", { method: "roots/list", params: undefined }],
    ]);
    expect(newQuestions(asked, new Set(["a", "b"]))).toEqual([]);
    expect(newQuestions(undefined, new Set())).toEqual([]);
  });
});

describe("/tasks", () => {
  it("lists each task with its server's words redacted, and its age", () => {
    let now = 1000;
    const list = new TaskList(() => now);
    const entry = list.add("notes", "index", {
      taskId: "t-1",
      status: "working",
      statusMessage: "s",
      pollMs: 50,
    });
    now = 4000;
    list.update(entry, "failed", "token sk-secret leaked");
    const result = tasksResult(list.snapshot(), (text) => text.replace("sk-secret", "[redacted]"), 65_000);
    expect(result).toEqual({
      kind: "table",
      title: "Tasks this session (1)",
      columns: ["server", "tool", "task", "status", "age"],
      rows: [["notes", "index", "t-1", "failed: token [redacted] leaked", "1 min 4 s"]],
      note: "Cancel a running one with Esc (or Ctrl+C) while its call runs.",
    });
    expect(tasksResult([], (text) => text, 0)).toMatchObject({ kind: "text" });
  });
});
