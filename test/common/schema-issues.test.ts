import { describe, expect, it } from "vitest";
import { errorMessage } from "../../src/core/errors.js";
import { compactSchemaIssues } from "../../src/core/schema-issues.js";

const SDK_STYLE = `Invalid result for tools/list: ${JSON.stringify(
  [
    {
      expected: "string",
      code: "invalid_type",
      path: ["nextCursor"],
      message: "Invalid input: expected string, received number",
    },
    {
      expected: "array",
      code: "invalid_type",
      path: ["tools", 0],
      message: "Invalid input: expected array, received string",
    },
  ],
  null,
  2,
)}`;

describe("schema issues in an error message", () => {
  it("turn the validator's JSON list into one line of path: message pairs", () => {
    expect(errorMessage(new Error(SDK_STYLE))).toBe(
      "Invalid result for tools/list: nextCursor: expected string, received number; tools.0: expected array, received string",
    );
  });

  it("leave a message alone when the brackets are not an issue list", () => {
    for (const message of [
      "Invalid result for tools/list: [not json]",
      'Invalid result for tools/list: [{"code":1}]',
      "server said: []",
      "plain words",
    ])
      expect(compactSchemaIssues(message)).toBe(message);
  });

  it("an issue without a path is its message alone", () => {
    expect(compactSchemaIssues('Bad: [{"message":"Invalid input: expected object"}]')).toBe(
      "Bad: expected object",
    );
  });
});
