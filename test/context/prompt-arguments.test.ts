import { describe, expect, it } from "vitest";
import {
  bindPromptArguments,
  parsePromptInvocation,
  promptUsage,
  splitArguments,
} from "../../src/core/context/prompt-arguments.js";

const argsPrompt = {
  name: "args-prompt",
  arguments: [
    { name: "city", description: "Name of the city", required: true },
    { name: "state", required: false },
  ],
};
const team = {
  name: "completable-prompt",
  arguments: [
    { name: "department", required: true },
    { name: "name", required: true },
  ],
};

function bind(prompt: typeof argsPrompt | typeof team | { name: string }, text: string): unknown {
  const result = bindPromptArguments(`/everything:${prompt.name}`, prompt, splitArguments(text));
  return result.ok ? result.args : result.reason;
}

describe("a server prompt's command line", () => {
  it.each([
    ["/everything:args-prompt Paris", { server: "everything", prompt: "args-prompt", rest: "Paris" }],
    ["  /my.server:p  a  b ", { server: "my.server", prompt: "p", rest: "a  b" }],
    ["/everything:simple-prompt", { server: "everything", prompt: "simple-prompt", rest: "" }],
    ["/mcp logs x", undefined],
    ["//everything:x", undefined],
    ["hello /a:b", undefined],
  ])("%j", (input, expected) => {
    expect(parsePromptInvocation(input)).toEqual(expected);
  });

  it.each([
    ["Paris", [{ key: undefined, value: "Paris" }]],
    [
      '"New York" NY',
      [
        { key: undefined, value: "New York" },
        { key: undefined, value: "NY" },
      ],
    ],
    ["city='San José'", [{ key: "city", value: "San José" }]],
    ['state="a \\"b\\" \\\\c"', [{ key: "state", value: 'a "b" \\c' }]],
    ['"a=b"', [{ key: undefined, value: "a=b" }]],
    ['x""', [{ key: undefined, value: "x" }]],
    ['""', [{ key: undefined, value: "" }]],
    ["url=https://x.test/?q=1", [{ key: "url", value: "https://x.test/?q=1" }]],
  ])("splits %j", (text, words) => {
    expect(splitArguments(text)).toEqual(words);
  });

  it("says so when a quote is not closed", () => {
    expect(() => splitArguments('city="New York')).toThrow(/unclosed double quote/);
  });

  it.each([
    [argsPrompt, "Paris", { city: "Paris" }],
    [argsPrompt, '"New York" NY', { city: "New York", state: "NY" }],
    [argsPrompt, "state=CA city=Fresno", { state: "CA", city: "Fresno" }],
    [argsPrompt, "state=CA Fresno", { state: "CA", city: "Fresno" }],
    [team, "Sales Eve", { department: "Sales", name: "Eve" }],
    [argsPrompt, "", "/everything:args-prompt needs city: /everything:args-prompt <city> [state]."],
    [argsPrompt, "state=CA", "/everything:args-prompt needs city: /everything:args-prompt <city> [state]."],
    [
      team,
      "",
      "/everything:completable-prompt needs department and name: /everything:completable-prompt <department> <name>.",
    ],
    [
      argsPrompt,
      "San Francisco CA",
      '/everything:args-prompt takes 2 arguments (city, state) and got 1 word too many; quote a value with spaces ("New York"): /everything:args-prompt <city> [state].',
    ],
    [
      argsPrompt,
      "town=Paris",
      '/everything:args-prompt has no argument "town" (its arguments: city, state); usage: /everything:args-prompt <city> [state].',
    ],
    [{ name: "simple-prompt" }, "extra", "/everything:simple-prompt takes no arguments."],
    [{ name: "simple-prompt" }, "", {}],
  ])("binds %j %j", (prompt, text, expected) => {
    expect(bind(prompt, text)).toEqual(expected);
  });

  it("writes the usage with required arguments in angle brackets", () => {
    expect(promptUsage(argsPrompt)).toBe("<city> [state]");
    expect(promptUsage({ name: "simple-prompt" })).toBe("");
  });
});
