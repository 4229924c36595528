import { describe, expect, it } from "vitest";
import { templatePrefix, templateProgress } from "../../src/core/context/uri-template.js";

const text = "demo://resource/dynamic/text/{resourceId}";

describe("how far a typed URI follows a resource template", () => {
  it.each([
    ["", { kind: "literal", text: "demo://resource/dynamic/text/" }],
    ["demo://res", { kind: "literal", text: "demo://resource/dynamic/text/" }],
    [
      "demo://resource/dynamic/text/",
      {
        kind: "variable",
        name: "resourceId",
        value: "",
        typed: "demo://resource/dynamic/text/",
        next: "",
        earlier: {},
      },
    ],
    [
      "demo://resource/dynamic/text/12",
      {
        kind: "variable",
        name: "resourceId",
        value: "12",
        typed: "demo://resource/dynamic/text/",
        next: "",
        earlier: {},
      },
    ],
    ["demo://resource/dynamic/blob/1", undefined],
    ["other://x", undefined],
  ])("%j", (typed, progress) => {
    expect(templateProgress(text, typed)).toEqual(progress);
  });

  it("knows the values before the variable being typed, and the literal after it", () => {
    expect(templateProgress("repo://{owner}/{name}/issues", "repo://octo/he")).toEqual({
      kind: "variable",
      name: "name",
      value: "he",
      typed: "repo://octo/",
      next: "/issues",
      earlier: { owner: "octo" },
    });
    expect(templateProgress("repo://{owner}/{name}/issues", "repo://octo/hello/iss")).toEqual({
      kind: "literal",
      text: "repo://octo/hello/issues",
    });
  });

  it("writes what operators expand to as literal text", () => {
    expect(templateProgress("search://x{?q,lang}", "search://x?q=cats&la")).toEqual({
      kind: "literal",
      text: "search://x?q=cats&lang=",
    });
    expect(templatePrefix("file:///{+path}")).toBe("file:///");
    expect(templatePrefix("{scheme}://x")).toBe("");
  });
});
