import path from "node:path";
import { ConfigError, errorMessage } from "../errors.js";
import { readRegularFile } from "../files/regular-file.js";
import { parseConfigDocument } from "./config-schema.js";
import { DEFAULT_CONFIG_FILE, emptyConfig, type McptermConfig } from "./config-types.js";
import { describeDuplicateKey, findDuplicateKey } from "./json-duplicate-keys.js";
import { describePosition, lineAndColumn } from "./json-position.js";

export interface LoadConfigOptions {
  /** As the user wrote it; relative paths are taken from `cwd`. Defaults to ./mcp.config.json. */
  path?: string;
  /** True when the user passed --config: then a missing file is an error rather than an empty config. */
  explicit: boolean;
  cwd: string;
  /** Source of `${VAR}` values. */
  env: NodeJS.ProcessEnv;
}

export async function loadConfig(options: LoadConfigOptions): Promise<McptermConfig> {
  if (options.path === "") throw new ConfigError("--config needs a file name; give the config to use.");
  const given = options.path ?? DEFAULT_CONFIG_FILE;
  const absolute = path.resolve(options.cwd, given);
  const fileLabel = displayPath(absolute, options.cwd);

  let text: string;
  try {
    text = await readRegularFile(absolute, "utf8");
  } catch (error) {
    if (isNodeError(error) && error.code === "ENOENT") {
      if (!options.explicit) return emptyConfig();
      throw new ConfigError(
        `Config file ${given} does not exist; check the path, or leave out --config to use ./${DEFAULT_CONFIG_FILE} when there is one.`,
        { cause: error },
      );
    }
    throw new ConfigError(`Config file ${fileLabel} could not be read: ${errorMessage(error)}.`, {
      cause: error,
    });
  }

  const config = parseConfigDocument(parseJson(text, fileLabel), {
    fileLabel,
    configDir: path.dirname(absolute),
    env: options.env,
  });
  config.path = absolute;
  return config;
}

function parseJson(text: string, fileLabel: string): unknown {
  // Editors on Windows save a byte-order mark that JSON.parse rejects.
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let document: unknown;
  try {
    document = JSON.parse(body) as unknown;
  } catch (error) {
    const { reason, offset } = describeJsonError(errorMessage(error), body);
    const where = offset === undefined ? "" : ` (${describePosition(lineAndColumn(body, offset))})`;
    throw new ConfigError(
      `${fileLabel} is not valid JSON${where}: ${reason}; fix the file or pass --config <file>.`,
      { cause: error },
    );
  }
  // JSON.parse kept the last of any repeated key: what a reader saw first may not be what runs.
  const duplicate = findDuplicateKey(body);
  if (duplicate) throw new ConfigError(`${fileLabel}: ${describeDuplicateKey(duplicate)}`);
  return document;
}

/**
 * V8 reports "… in JSON at position 42" (Node 22 adds "(line 3 column 5)"), "Unexpected end of
 * JSON input", or "Unexpected token 'x', "<snippet>" is not valid JSON" without any position.
 */
function describeJsonError(message: string, text: string): { reason: string; offset: number | undefined } {
  const positioned = /^(.*) in JSON at position (\d+)/.exec(message);
  if (positioned?.[1] !== undefined && positioned[2] !== undefined) {
    return { reason: positioned[1], offset: Number(positioned[2]) };
  }
  if (message.startsWith("Unexpected end of JSON input")) {
    return { reason: "the file ends before the JSON is complete", offset: text.length };
  }
  // The snippet is left out, whole or cut at either end (`"SHELL=/bin"...`, `..."key": ghp_…"...`):
  // a linked file may be anything, and the text around a bad token may be a secret.
  const token = /^(Unexpected token .*?), (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s.exec(message);
  return { reason: token?.[1] ?? message, offset: undefined };
}

/** Relative to the working folder when inside it, as people read paths in error messages. */
function displayPath(absolute: string, cwd: string): string {
  const relative = path.relative(cwd, absolute);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? absolute : relative;
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}
