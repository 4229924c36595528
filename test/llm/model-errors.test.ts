import { describe, expect, it } from "vitest";
import { endpointLabel } from "../../src/core/llm/endpoint-label.js";
import { stallError } from "../../src/core/llm/model-errors.js";

const context = { baseUrl: "http://gpu-box:8000/v1", model: "m", timeoutMs: 1, apiKey: undefined };

describe("stallError", () => {
  it("names the endpoint, the limit in seconds and the setting to raise", () => {
    const error = stallError({ phase: "idle", limitMs: 60_000 }, { ...context, retries: 0 }, undefined);
    expect(error.kind).toBe("stalled");
    expect(error.message).toBe(
      "The model endpoint at http://gpu-box:8000/v1 went silent for 60 s mid-answer; check the server, or raise model.idleTimeoutMs (or MCPTERM_MODEL_IDLE_TIMEOUT_MS) if it is just slow.",
    );
  });

  it("counts retries before a first-token stall", () => {
    const error = stallError(
      { phase: "first_token", limitMs: 240_000 },
      { ...context, retries: 1 },
      undefined,
    );
    expect(error.message).toContain("went silent for 240 s before its answer began after 1 retry;");
  });
});

describe("endpointLabel", () => {
  it.each([
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"],
    ["https://api.openai.com/v1/", "https://api.openai.com/v1/"],
    ["https://user:s3cret@gateway.example/v1?api-key=abc#x", "https://gateway.example/v1"],
    ["http://localhost:8080", "http://localhost:8080"],
  ])("%s is shown as %s", (url, label) => {
    expect(endpointLabel(url)).toBe(label);
  });
});
