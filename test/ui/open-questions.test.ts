import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/core/person/approval-request.js";
import { OpenQuestions } from "../../src/ui/panels/open-questions.js";
import type { AskedQuestion } from "../../src/ui/transcript/transcript-types.js";

const request = (callId: string): ApprovalRequest => ({
  callId,
  server: "fixture",
  tool: "write_note",
  tier: "dangerous",
  tierReason: "destructiveHint",
  reason: "dangerous calls need a person's yes",
  arguments: {},
  notes: [],
});
const FETCH = {
  url: "https://wiki.example.com/a",
  host: "wiki.example.com",
  reason: "external calls need a person's yes",
};

function owner(): { questions: OpenQuestions; reports: AskedQuestion[][]; told: string[] } {
  const reports: AskedQuestion[][] = [];
  const told: string[] = [];
  const questions = new OpenQuestions(
    (asking) => reports.push([...asking]),
    (_level, text) => told.push(text),
  );
  return { questions, reports, told };
}

describe("OpenQuestions, the one owner of what the TUI asks", () => {
  it("answers a call by its id with what the key meant, and reports it gone at once", async () => {
    const { questions, reports } = owner();
    const asked = questions.approveCall(request("c1"), new AbortController().signal);
    expect(reports.at(-1)).toEqual([{ kind: "call", callId: "c1" }]);
    questions.answerApproval("c2", { kind: "once" });
    expect(reports).toHaveLength(1);
    questions.answerApproval("c1", { kind: "always" });
    expect(reports.at(-1)).toEqual([]);
    expect(await asked).toEqual({
      approved: true,
      remember: "session",
      reason: "approved by the user, and allowed for the rest of this session",
    });
  });

  it("keeps a denial's reason, trimmed, and says so when there is none", async () => {
    const { questions } = owner();
    const first = questions.approveCall(request("c1"), new AbortController().signal);
    questions.answerApproval("c1", { kind: "deny", reason: "  not that folder " });
    expect(await first).toEqual({ approved: false, reason: "the user denied it and said: not that folder" });
    const second = questions.approveCall(request("c2"), new AbortController().signal);
    questions.answerApproval("c2", { kind: "deny", reason: "   " });
    expect(await second).toEqual({ approved: false, reason: "the user denied it" });
  });

  it("refuses a page to fetch while a call waits, and gives a waiting fetch up for a model's call", async () => {
    const { questions, reports } = owner();
    const call = questions.approveCall(request("c1"), new AbortController().signal);
    expect(await questions.approveFetch(FETCH, new AbortController().signal)).toEqual({
      approved: false,
      reason: "another call is waiting for your answer",
    });
    questions.answerApproval("c1", { kind: "deny" });
    await call;
    const fetch = questions.approveFetch(FETCH, new AbortController().signal);
    expect(reports.at(-1)).toEqual([{ kind: "fetch", callId: "kb-add-1", question: FETCH }]);
    void questions.approveCall(request("c2"), new AbortController().signal);
    expect(await fetch).toEqual({
      approved: false,
      reason: "a call of the model's turn needed your answer first",
    });
    expect(reports.at(-1)).toEqual([{ kind: "call", callId: "c2" }]);
  });

  it("answers no when its asker gives up, says so for a server's question, and ignores a late answer", async () => {
    const { questions, reports, told } = owner();
    const turn = new AbortController();
    const call = questions.approveCall(request("c1"), turn.signal);
    turn.abort();
    expect(await call).toEqual({ approved: false, reason: "the user cancelled the turn" });
    expect(told).toEqual([]);
    const server = new AbortController();
    const form = questions.elicitation(
      { mode: "form", server: "s", message: "m", fields: [] },
      server.signal,
    );
    server.abort();
    expect(await form).toEqual({ action: "cancel" });
    expect(told).toEqual(["The server withdrew its question before it was answered."]);
    questions.answerQuestion(1, { kind: "elicitation", answer: { action: "accept", content: {} } });
    expect(reports.at(-1)).toEqual([]);
    // Asked after its asker already gave up: never shown.
    const before = reports.length;
    expect(await questions.sampling({} as never, AbortSignal.abort())).toMatchObject({ approved: false });
    expect(reports).toHaveLength(before);
  });

  it("says no to everything still open when the TUI closes", async () => {
    const { questions, reports } = owner();
    const call = questions.approveCall(request("c1"), new AbortController().signal);
    const form = questions.elicitation(
      { mode: "form", server: "s", message: "m", fields: [] },
      new AbortController().signal,
    );
    questions.close();
    expect(await call).toMatchObject({ approved: false });
    expect(await form).toEqual({ action: "cancel" });
    expect(reports.at(-1)).toEqual([]);
  });
});
