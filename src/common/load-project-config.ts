import { loadConfig, type McptermConfig } from "../core/config/index.js";
import type { CommonArgs } from "../args.js";
import type { CliIo } from "./cli-io.js";

/** The project's mcp.config.json: --config, else ./mcp.config.json (a missing default file is an empty config). */
export function loadProjectConfig(common: CommonArgs, io: CliIo): Promise<McptermConfig> {
  return loadConfig({
    ...(common.config === undefined ? {} : { path: common.config }),
    explicit: common.config !== undefined,
    cwd: io.cwd,
    env: io.env,
  });
}
