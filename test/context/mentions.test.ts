import { describe, expect, it } from "vitest";
import { findMentions, mentionedUri } from "../../src/core/context/mentions.js";

const listed = [
  { name: "doc", uri: "demo://resource/static/document/architecture.md" },
  { name: "secret", uri: "https://api.example.com/x?token=hunter2" },
];
const redact = (text: string): string => text.replaceAll("hunter2", "[REDACTED]");

describe("@server:uri mentions", () => {
  it.each([
    ["read @everything:demo://resource/1 please", [["everything", "demo://resource/1"]]],
    [
      "@a:x://1 and @b.c-d:file:///tmp/y",
      [
        ["a", "x://1"],
        ["b.c-d", "file:///tmp/y"],
      ],
    ],
    ["twice @a:x://1 @a:x://1", [["a", "x://1"]]],
    ["mail me@host:x://1", []],
    ["@Override: a method", []],
    ["@param:string is not a URI", []],
    ["@everything: demo://x", []],
    ["line one\n@fixture:note://a", [["fixture", "note://a"]]],
  ])("%j", (text, expected) => {
    expect(findMentions(text).map((mention) => [mention.server, mention.uri])).toEqual(expected);
  });

  it.each([
    ["demo://resource/static/document/architecture.md", "demo://resource/static/document/architecture.md"],
    ["demo://resource/static/document/architecture.md.", "demo://resource/static/document/architecture.md"],
    ["demo://resource/dynamic/text/3).", "demo://resource/dynamic/text/3"],
    ["demo://unlisted/ok", "demo://unlisted/ok"],
    ["https://api.example.com/x?token=[REDACTED]", "https://api.example.com/x?token=hunter2"],
  ])("%s means %s", (typed, uri) => {
    expect(mentionedUri(typed, listed, redact)).toBe(uri);
  });
});
