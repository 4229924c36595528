import { createRequire } from "node:module";

// src/core/version.ts and dist/core/version.js are both two folders below package.json.
const packageJson = createRequire(import.meta.url)("../../package.json") as { name: string; version: string };

export const MCPTERM_VERSION = packageJson.version;
export const CLIENT_INFO = { name: packageJson.name, version: packageJson.version };
