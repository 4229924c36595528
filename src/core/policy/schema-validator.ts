import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import type { JsonSchemaValidator } from "@modelcontextprotocol/client";
import { isTooLargeToCheck } from "./schema-expansion.js";
import { withAllowedValues } from "./allowed-values.js";

/** Deeper than this, a schema is not walked (nor checked below it): no tool needs it. */
const MAX_SCHEMA_DEPTH = 64;

/**
 * The JSON Schema dialects the validator knows (http or https, with or without a trailing `#`).
 * A schema without `$schema` is 2020-12, as MCP says; one that declares a dialect is checked by
 * that dialect's rules (draft-07's array `items` is a tuple; in 2020-12 it is `prefixItems`).
 */
const KNOWN_DIALECTS = new Set(
  ["draft/2020-12", "draft/2019-09", "draft-07", "draft-06"].flatMap((draft) => [
    `https://json-schema.org/${draft}/schema`,
    `http://json-schema.org/${draft}/schema`,
  ]),
);

/** Whether the validator knows the dialect `$schema` names. */
export function isKnownDialect(dialect: unknown): boolean {
  return typeof dialect === "string" && KNOWN_DIALECTS.has(dialect.replace(/#$/, ""));
}

/**
 * The schema as mcpterm checks it, a copy without what a hostile server could turn against the
 * checker: `pattern` and `patternProperties` (a server's regular expression such as `^(a+)+$`
 * backtracks for minutes on a short string, on the event loop, where not even Ctrl+C is heard;
 * the server still checks its own patterns), `$id` (ajv registers schemas by `$id` for the whole
 * session, so one server's schema could stand in for another's, or an old one for its
 * replacement), and a `$schema` that is not at the top or names a dialect the validator does
 * not know (it would stop the schema compiling at all; such a schema is checked as 2020-12).
 */
export function checkableSchema(schema: unknown, depth = 0, namesOnly = false): unknown {
  if (Array.isArray(schema))
    return depth > MAX_SCHEMA_DEPTH ? [] : schema.map((item) => checkableSchema(item, depth + 1));
  if (typeof schema !== "object" || schema === null) return schema;
  if (depth > MAX_SCHEMA_DEPTH) return {};
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // Under `properties` and the like, keys are names (a property may be called "pattern").
    if (!namesOnly) {
      if (key === "$id" || key === "patternProperties") continue;
      if (key === "$schema" && (depth > 0 || !isKnownDialect(value))) continue;
      if (key === "pattern" && typeof value === "string") continue;
    }
    copy[key] = checkableSchema(value, depth + 1, !namesOnly && NAME_MAPS.has(key));
  }
  return copy;
}

/** Keywords whose value maps names to schemas, not keywords to values. */
const NAME_MAPS = new Set(["properties", "definitions", "$defs", "dependentSchemas"]);

/** What `warm` compiles: the shape of most tools' arguments, in the default dialect (2020-12). */
const WARM_UP_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { text: { type: "string" } },
  required: ["text"],
};

/** ajv's text for one error starts with its data variable and the failing value's path. */
const ERROR_START = /, (?=data(?:\/| ))/;

/** One place where a value breaks a schema: its JSON pointer ("" for the whole value) and why. */
export interface SchemaMismatch {
  path: string;
  message: string;
}

/**
 * The session's one JSON Schema validator: a call's arguments against the tool's inputSchema
 * before anyone is asked to approve it (so nobody approves garbage and the model gets the message
 * to fix its call), and a result's structuredContent against its outputSchema. Compiled
 * validators are cached per schema object; tool schemas live as long as the tool list.
 *
 * ajv (in the MCP SDK's validators, about 300 KB) loads with `ready()`, which whoever checks
 * awaits first: a run that checks nothing (`-p` with no tools) never loads it.
 */
export class SchemaValidator {
  private validator: AjvJsonSchemaValidator | undefined;
  private loading: Promise<void> | undefined;
  private readonly compiled = new WeakMap<object, JsonSchemaValidator<unknown> | null>();

  /** A validator that is ready to check. */
  static async loaded(): Promise<SchemaValidator> {
    const validator = new SchemaValidator();
    await validator.ready();
    return validator;
  }

  /** Loads the validator once; `check` and `mismatches` need it. Settled at once after the first time. */
  ready(): Promise<void> {
    this.loading ??= import("@modelcontextprotocol/client/validators/ajv").then(
      ({ AjvJsonSchemaValidator }) => {
        this.validator = new AjvJsonSchemaValidator();
      },
    );
    return this.loading;
  }

  /**
   * Loads the validator and has it compile a first schema, which is when ajv builds itself (about
   * 10 ms, more than all the schemas after it): for a caller with time to spare (the model is
   * thinking), so the first call checked later does not pay it. Never rejects.
   */
  warm(): Promise<void> {
    return this.ready().then(
      () => {
        this.compile(WARM_UP_SCHEMA);
      },
      () => undefined,
    );
  }

  /** Whether `ready()` has settled, so a caller on a hot path can skip awaiting it. */
  get isReady(): boolean {
    return this.validator !== undefined;
  }

  /** The validation message, or undefined when the value fits (or the schema cannot be compiled). */
  check(schema: Record<string, unknown>, value: unknown): string | undefined {
    const message = this.ajvMessage(schema, value);
    return message === undefined
      ? undefined
      : message
          .split(ERROR_START)
          .map((error) => withAllowedValues(error, schema))
          .join(", ");
  }

  /** Every place the value breaks the schema, in ajv's order; empty when it fits or cannot be checked. */
  mismatches(schema: Record<string, unknown>, value: unknown): SchemaMismatch[] {
    const message = this.ajvMessage(schema, value);
    if (message === undefined) return [];
    // Split before the allowed values are added: a value may hold what reads as the next error.
    return message.split(ERROR_START).map((error) => {
      const match = /^data(\S*) ([\s\S]*)$/.exec(withAllowedValues(error, schema));
      return match ? { path: match[1] ?? "", message: match[2] ?? "" } : { path: "", message: error };
    });
  }

  /** ajv's message, its errors joined by ", ", or undefined when the value fits or cannot be checked. */
  private ajvMessage(schema: Record<string, unknown>, value: unknown): string | undefined {
    const validate = this.compile(schema);
    if (!validate) return undefined;
    let result: ReturnType<typeof validate>;
    try {
      result = validate(value);
    } catch (error) {
      // A schema whose references loop through allOf, anyOf and the like without a property
      // or item in between never finishes checking: the server's bug (lint names it), and the
      // server still validates on its side. Skipped as a schema that cannot be compiled is.
      if (error instanceof RangeError) {
        this.compiled.set(schema, null);
        return undefined;
      }
      throw error;
    }
    return result.valid ? undefined : result.errorMessage;
  }

  private compile(schema: Record<string, unknown>): JsonSchemaValidator<unknown> | null {
    const validator = this.validator;
    // A bug in the caller, not a schema the validator could not read: that one is skipped below.
    if (!validator) throw new Error("SchemaValidator used before ready() settled");
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      try {
        // The validator picks the dialect from `$schema` (2020-12 when there is none); one whose
        // references expand past all reason is not handed to it (schema-expansion.ts).
        validate = isTooLargeToCheck(schema)
          ? null
          : validator.getValidator<unknown>(checkableSchema(schema) as Record<string, unknown>);
      } catch {
        // A schema ajv cannot compile is the server's bug; the server still validates on its side.
        validate = null;
      }
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
