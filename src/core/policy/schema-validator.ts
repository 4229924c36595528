import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";

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
 */
export class SchemaValidator {
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly compiled = new WeakMap<object, JsonSchemaValidator<unknown> | null>();

  /** The validation message, or undefined when the value fits (or the schema cannot be compiled). */
  check(schema: Record<string, unknown>, value: unknown): string | undefined {
    const validate = this.compile(schema);
    if (!validate) return undefined;
    const result = validate(value);
    return result.valid ? undefined : result.errorMessage;
  }

  /** Every place the value breaks the schema, in ajv's order; empty when it fits or cannot be checked. */
  mismatches(schema: Record<string, unknown>, value: unknown): SchemaMismatch[] {
    const message = this.check(schema, value);
    if (message === undefined) return [];
    return message.split(ERROR_START).map((error) => {
      const match = /^data(\S*) ([\s\S]*)$/.exec(error);
      return match ? { path: match[1] ?? "", message: match[2] ?? "" } : { path: "", message: error };
    });
  }

  private compile(schema: Record<string, unknown>): JsonSchemaValidator<unknown> | null {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      try {
        // Servers declare draft 2020-12 or draft-07; the keywords tools use mean the same in both,
        // and a `$schema` the default ajv does not know would stop it compiling at all.
        const { $schema: _dialect, ...body } = schema;
        validate = this.validator.getValidator<unknown>(body);
      } catch {
        // A schema ajv cannot compile is the server's bug; the server still validates on its side.
        validate = null;
      }
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
