import { describe, expect, it } from "vitest";
import {
  applyDefaults,
  contentProblem,
  formFields,
  parseFieldInput,
  type FormField,
} from "../../src/core/person/elicitation-form.js";
import { elicitationQuestion, formResult } from "../../src/core/person/elicitation.js";
import { openableUrl } from "../../src/core/policy/openable-url.js";

/** The conformance suite's SEP-1034 schema: every primitive with a default. */
const DEFAULTS_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
  required: [],
};

function fields(schema: unknown): FormField[] {
  const form = formFields(schema);
  if ("problem" in form) throw new Error(form.problem);
  return form.fields;
}

function required(count: number, list: FormField[]): [FormField, FormField, FormField, FormField] {
  if (list.length !== count) throw new Error(`expected ${count} fields, got ${list.length}`);
  return list as [FormField, FormField, FormField, FormField];
}

describe("elicitation forms", () => {
  it("reads every primitive the spec allows, with its default", () => {
    const form = fields(DEFAULTS_SCHEMA);
    expect(form.map((field) => [field.name, field.kind, field.default])).toEqual([
      ["name", "string", "John Doe"],
      ["age", "integer", 30],
      ["score", "number", 95.5],
      ["status", "enum", "active"],
      ["verified", "boolean", true],
    ]);
  });

  it("applies defaults to what the person left out, and keeps what they typed", () => {
    const form = fields(DEFAULTS_SCHEMA);
    expect(applyDefaults(form, { name: "Ada" })).toEqual({
      name: "Ada",
      age: 30,
      score: 95.5,
      status: "active",
      verified: true,
    });
    expect(formResult(form, { action: "accept", content: {} })).toEqual({
      ok: true,
      result: {
        action: "accept",
        content: { name: "John Doe", age: 30, score: 95.5, status: "active", verified: true },
      },
    });
  });

  it("treats fields named like Object's own members as any other", () => {
    const form = fields({
      type: "object",
      properties: { constructor: { type: "string", default: "c" }, toString: { type: "string" } },
    });
    expect(formResult(form, { action: "accept", content: {} })).toEqual({
      ok: true,
      result: { action: "accept", content: { constructor: "c" } },
    });
  });

  it("sends nothing back for a decline or cancel, whatever was typed", () => {
    const form = fields(DEFAULTS_SCHEMA);
    expect(formResult(form, { action: "decline" })).toEqual({ ok: true, result: { action: "decline" } });
    expect(formResult(form, { action: "cancel" })).toEqual({ ok: true, result: { action: "cancel" } });
  });

  it.each([
    [
      {
        type: "string",
        oneOf: [
          { const: "a", title: "Apple" },
          { const: "b", title: "Banana" },
        ],
      },
      "enum",
      ["Apple", "Banana"],
    ],
    [{ type: "string", enum: ["x", "y"], enumNames: ["Ex", "Why"] }, "enum", ["Ex", "Why"]],
    [{ type: "array", items: { type: "string", enum: ["r", "g"] } }, "multi", ["r", "g"]],
    [{ type: "array", items: { anyOf: [{ const: "r", title: "Red" }] } }, "multi", ["Red"]],
  ])("reads the choices of %j", (property, kind, labels) => {
    const [field] = fields({ type: "object", properties: { pick: property } });
    expect(field?.kind).toBe(kind);
    expect(field?.options.map((option) => option.label)).toEqual(labels);
  });

  it.each([
    [{ type: "object", properties: { nested: { type: "object", properties: {} } } }, /nested.*"object"/],
    [
      { type: "object", properties: { list: { type: "array", items: { type: "number" } } } },
      /array of something other than choices/,
    ],
    [{ type: "string" }, /not an object schema/],
    [
      {
        type: "object",
        properties: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: "string" }])),
      },
      /51 fields; mcpterm shows at most 50/,
    ],
  ])("refuses a schema a form cannot show: %j", (schema, reason) => {
    const form = formFields(schema);
    expect("problem" in form && form.problem).toMatch(reason);
  });

  it("marks fields that ask for a secret, which the spec forbids a form to do", () => {
    const form = fields({
      type: "object",
      properties: {
        password: { type: "string" },
        key: { type: "string", title: "API Key" },
        name: { type: "string", title: "Your name" },
      },
    });
    expect(form.map((field) => [field.name, field.asksForSecret])).toEqual([
      ["password", true],
      ["key", true],
      ["name", false],
    ]);
  });

  it("strips terminal escapes and hidden text from labels and choices", () => {
    const [field] = fields({
      type: "object",
      properties: { a: { type: "string", title: "Na\u001b[2Jme\u200b", enum: ["\u001b]0;x\u0007ok"] } },
    });
    expect(field?.label).toBe("Name");
    expect(field?.options[0]?.label).not.toContain("\u001b");
    expect(field?.options[0]?.label).not.toContain("\u0007");
  });

  it("checks an answer against the form: required, ranges, lengths, formats, choices", () => {
    const form = fields({
      type: "object",
      properties: {
        email: { type: "string", format: "email" },
        n: { type: "integer", minimum: 1, maximum: 10 },
        code: { type: "string", minLength: 2, maxLength: 3 },
        pick: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, maxItems: 2 },
      },
      required: ["email"],
    });
    expect(contentProblem(form, {})).toBe("email is required");
    expect(contentProblem(form, { email: "nope" })).toBe("email must be an email address");
    expect(contentProblem(form, { email: "a@b.co", n: 11 })).toBe("n must be at most 10");
    expect(contentProblem(form, { email: "a@b.co", n: 2.5 })).toBe("n must be a whole number");
    // Characters, not UTF-16 units: two emoji are two characters.
    expect(contentProblem(form, { email: "a@b.co", code: "😀😀" })).toBeUndefined();
    expect(contentProblem(form, { email: "a@b.co", pick: ["a", "b", "c"] })).toBe("pick takes at most 2");
    expect(contentProblem(form, { email: "a@b.co", n: 3, code: "ab", pick: ["c"] })).toBeUndefined();
  });

  it("turns what was typed into values: numbers, yes/no, choices by number or name", () => {
    const [num, flag, choice, many] = required(
      4,
      fields({
        type: "object",
        properties: {
          num: { type: "number" },
          flag: { type: "boolean" },
          choice: { type: "string", enum: ["red", "green"] },
          many: { type: "array", items: { type: "string", enum: ["x", "y", "z"] } },
        },
      }),
    );
    expect(parseFieldInput(num, " 3.5 ")).toEqual({ value: 3.5 });
    expect(parseFieldInput(num, "three")).toEqual({ problem: "num must be a number" });
    expect(parseFieldInput(flag, "Yes")).toEqual({ value: true });
    expect(parseFieldInput(flag, "off")).toEqual({ value: false });
    expect(parseFieldInput(choice, "2")).toEqual({ value: "green" });
    expect(parseFieldInput(choice, "RED")).toEqual({ value: "red" });
    expect(parseFieldInput(choice, "blue")).toEqual({ problem: "choice must be one of: 1 red, 2 green" });
    expect(parseFieldInput(many, "3, x, z")).toEqual({ value: ["z", "x"] });
    expect(parseFieldInput(num, "   ")).toEqual({ value: undefined });
  });
});

describe("URL elicitation", () => {
  it("opens only web pages, and names the domain a person must check", () => {
    expect(openableUrl("https://example.com/a")?.hostname).toBe("example.com");
    for (const address of [
      "file:///etc/passwd",
      "javascript:alert(1)",
      "data:text/html,x",
      "vscode://x",
      "not a url",
    ])
      expect(openableUrl(address)).toBeUndefined();
    const question = elicitationQuestion(
      "s",
      { mode: "url", message: "Sign in", url: "https://xn--pple-43d.com/login", elicitationId: "1" },
      (text) => text,
    );
    // The punycode form is what is shown: a look-alike domain cannot pass for the real one.
    expect(question).toMatchObject({ mode: "url", domain: "xn--pple-43d.com" });
    expect(
      elicitationQuestion(
        "s",
        { mode: "url", message: "x", url: "file:///etc/passwd", elicitationId: "1" },
        (t) => t,
      ),
    ).toEqual({ problem: "the address it asks to open is not an http(s) URL" });
    const ask = (url: string) =>
      elicitationQuestion("s", { mode: "url", message: "x", url, elicitationId: "1" }, (t) => t);
    expect(ask("https://accounts.example.com@evil.example/")).toEqual({
      problem: "the address it asks to open has a user name in it, which hides where it goes",
    });
    expect(ask(`https://a.example/${"a".repeat(2100)}`)).toEqual({
      problem: "the address it asks to open is over 2048 characters long",
    });
    // The port is part of where it goes.
    expect(ask("http://127.0.0.1:9200/x")).toMatchObject({ domain: "127.0.0.1:9200" });
  });
});
