import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";

/**
 * Checks a call's arguments against the tool's inputSchema before anyone is asked to approve
 * it, so nobody approves garbage and the model gets the validation message to fix its call.
 * Compiled validators are cached per schema object; tool schemas live as long as the tool list.
 */
export class ArgumentValidator {
  private readonly validator = new AjvJsonSchemaValidator();
  private readonly compiled = new WeakMap<object, JsonSchemaValidator<unknown> | null>();

  /** The validation message, or undefined when the arguments fit (or the schema cannot be compiled). */
  check(schema: Record<string, unknown>, args: Record<string, unknown>): string | undefined {
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
    if (!validate) return undefined;
    const result = validate(args);
    return result.valid ? undefined : result.errorMessage;
  }
}
