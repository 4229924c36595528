import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "../../src/core/config/http-url.js";
import { clearTextSecrets } from "../../src/core/config/plain-http.js";

const token = { Authorization: "Bearer t" };

describe("clearTextSecrets", () => {
  it.each<[string, string, Record<string, string>, string | undefined]>([
    [
      "headers over http to a remote host",
      "http://mcp.example.com/mcp",
      token,
      "its headers (Authorization)",
    ],
    [
      "several headers",
      "http://10.0.0.5:3000/mcp",
      { "X-Key": "k", Cookie: "c" },
      "its headers (X-Key, Cookie)",
    ],
    [
      "a password in the URL",
      "http://ada:pw@mcp.example.com/mcp",
      {},
      "the user name and password in its URL",
    ],
    ["0.0.0.0, which names no host", "http://0.0.0.0:3000/mcp", token, "its headers (Authorization)"],
    [
      "a name that merely starts like localhost",
      "http://localhost.example.com/mcp",
      token,
      "its headers (Authorization)",
    ],
    ["https", "https://mcp.example.com/mcp", token, undefined],
    ["http with nothing secret", "http://mcp.example.com/mcp", {}, undefined],
    ["localhost", "http://localhost:3000/mcp", token, undefined],
    ["127.0.0.1", "http://127.0.0.1:3000/mcp", token, undefined],
    ["anywhere in 127.0.0.0/8", "http://127.8.9.10/mcp", token, undefined],
    ["127.0.0.1 written short", "http://127.1:3000/mcp", token, undefined],
    ["::1", "http://[::1]:3000/mcp", token, undefined],
    ["127.0.0.1 as an IPv4-mapped IPv6 address", "http://[::ffff:127.0.0.1]/mcp", token, undefined],
  ])("%s", (_name, url, headers, expected) => {
    expect(clearTextSecrets({ url, rawUrl: url, headers })?.secrets).toBe(expected);
  });

  it("counts values the URL's query takes from the environment, not its host", () => {
    const request = (rawUrl: string, url: string) => clearTextSecrets({ url, rawUrl, headers: {} });
    expect(request("http://h.example/mcp?key=${KEY}", "http://h.example/mcp?key=s3")).toEqual({
      host: "h.example",
      secrets: "the environment values in its URL",
    });
    expect(request("http://${HOST}:3000/mcp", "http://h.example:3000/mcp")).toBeUndefined();
  });
});

describe("isLoopbackHost", () => {
  it.each<[string, boolean]>([
    ["localhost", true],
    ["LOCALHOST", true],
    ["localhost.", true],
    ["127.0.0.1", true],
    ["127.255.255.254", true],
    ["[::1]", true],
    ["0.0.0.0", false],
    ["128.0.0.1", false],
    ["foo.localhost", false],
    ["[::2]", false],
    ["example.com", false],
  ])("%s -> %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});
