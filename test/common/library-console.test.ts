import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { guardLibraryConsole } from "../../src/common/library-console.js";
import { waitFor } from "../support/poll.js";

const saved = { ...console };
afterEach(() => Object.assign(console, saved));

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  return { stream, text: () => text };
}

describe("what libraries print with console", () => {
  it("is dropped without --debug: an SDK warning quoting a server's error never reaches the terminal", () => {
    const out = capture();
    guardLibraryConsole(false, out.stream);
    console.warn('[mcp-sdk] OAuth "invalid_client". Cause: "bad credentials: Basic cHJlc2V0OnNla3JpdA=="');
    console.error("\x1b[2Jcleared");
    console.log("noise");
    expect(out.text()).toBe("");
  });

  it("with --debug, is one line on stderr, credentials redacted and terminal controls stripped", async () => {
    process.env.LIBRARY_CONSOLE_TEST_TOKEN = "tok-0123456789abcdef";
    const out = capture();
    guardLibraryConsole(true, out.stream);
    console.warn(
      "[mcp-sdk] refused:\n%s \x1b]0;title\x07",
      `Bearer ${process.env.LIBRARY_CONSOLE_TEST_TOKEN}`,
    );
    await waitFor(() => out.text().endsWith("\n"), "the warning");
    expect(out.text()).toMatch(/^mcpterm: \(library\) \[mcp-sdk\] refused: /);
    expect(out.text()).not.toContain("tok-0123456789abcdef");
    expect(out.text()).not.toContain("\x1b");
    expect(out.text().split("\n")).toHaveLength(2);
    delete process.env.LIBRARY_CONSOLE_TEST_TOKEN;
  });
});
