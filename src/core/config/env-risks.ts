/**
 * Variables that make a program load or run code other than the command line says: a config
 * that sets them for a server can turn a trusted-looking command (the official filesystem server
 * through npx, say) into something else, so the trust question marks them.
 */
const CODE_LOADING_VARIABLES = new Set([
  "NODE_OPTIONS",
  "NODE_PATH",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "PATH",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PYTHONHOME",
  "RUBYOPT",
  "RUBYLIB",
  "PERL5OPT",
  "PERL5LIB",
  "BASH_ENV",
  "ENV",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "GIT_SSH_COMMAND",
  "NPM_CONFIG_REGISTRY",
  "npm_config_registry",
]);

/** The names in `env` that can make the server run code its command line does not show. */
export function codeLoadingVariables(env: Readonly<Record<string, string>>): string[] {
  return Object.keys(env).filter((name) => CODE_LOADING_VARIABLES.has(name) || name.startsWith("DYLD_"));
}
