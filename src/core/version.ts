import packageJson from "../../package.json" with { type: "json" };

export const MCPTERM_VERSION = packageJson.version;
export const CLIENT_INFO = { name: packageJson.name, version: packageJson.version };
