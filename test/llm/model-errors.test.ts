import { describe, expect, it } from "vitest";
import { endpointLabel } from "../../src/core/llm/endpoint-label.js";
import { stallError, toLlmError } from "../../src/core/llm/model-errors.js";

const context = {
  baseUrl: "http://gpu-box:8000/v1",
  model: "m",
  timeoutMs: 1,
  apiKey: undefined,
  sources: {},
};

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

describe("a model endpoint that could not be reached", () => {
  const unreached = (code: string, sources = {}): string =>
    toLlmError(
      { failure: { type: "network", code }, headers: undefined, serverMessage: undefined, protocol: false },
      { ...context, retries: 0, sources },
      undefined,
    ).message;

  it("tells a host name that did not resolve from a server that is not running", () => {
    expect(unreached("ENOTFOUND", { baseUrl: "OPENAI_BASE_URL" })).toBe(
      "Could not reach the model endpoint at http://gpu-box:8000/v1 (ENOTFOUND); its host name did not resolve: check the address (OPENAI_BASE_URL) and this machine's network.",
    );
    expect(unreached("EAI_AGAIN")).toContain("its host name did not resolve: check the address (--base-url)");
    expect(unreached("ECONNREFUSED")).toMatch(
      /\(ECONNREFUSED\); nothing is listening there; is the server running\?$/,
    );
    expect(unreached("EHOSTUNREACH")).toMatch(
      /\(EHOSTUNREACH\); check the address \(--base-url\), that the server is running, and this machine's network\.$/,
    );
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
