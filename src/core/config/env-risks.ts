/**
 * Variables that make a program load or run code other than the command line says: a config
 * that sets them for a server can turn a trusted-looking command (the official filesystem server
 * through npx, say) into something else, so the trust question marks them. Package runners are
 * the common case: npx and uvx fetch and run what their registry, config files and proxy give
 * them, and a HOME or config folder of the project's choosing points them at the project's own
 * `.npmrc` or `pip.conf`. Names are matched ignoring case: npm reads `npm_config_*` in any case,
 * and most tools read both `https_proxy` and `HTTPS_PROXY`.
 */
const CODE_LOADING_VARIABLES = new Set(
  [
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
    // Shells: zsh reads $ZDOTDIR/.zshenv; bash runs PS4 and PROMPT_COMMAND, and SHELLOPTS or
    // BASHOPTS can turn on the tracing that expands PS4.
    "ZDOTDIR",
    "PS4",
    "PROMPT_COMMAND",
    "SHELLOPTS",
    "BASHOPTS",
    // glibc loads character-set modules from GCONV_PATH; git and ssh run helper programs.
    "GCONV_PATH",
    "GIT_EXEC_PATH",
    "GIT_ASKPASS",
    "GIT_SSH",
    "GIT_PROXY_COMMAND",
    "GIT_TEMPLATE_DIR",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_EDITOR",
    // A repository of the project's choosing, whose own config (core.fsmonitor) runs a program.
    "GIT_DIR",
    "SSH_ASKPASS",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "GIT_SSH_COMMAND",
    // Where package runners and their tools read their configuration.
    "HOME",
    "XDG_CONFIG_HOME",
    // What they download through, and whether they check who answers.
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NODE_TLS_REJECT_UNAUTHORIZED",
    "NODE_EXTRA_CA_CERTS",
    "SSL_CERT_FILE",
    "REQUESTS_CA_BUNDLE",
    "UV_INDEX",
    "UV_INDEX_URL",
    "UV_DEFAULT_INDEX",
    "UV_EXTRA_INDEX_URL",
  ].map((name) => name.toUpperCase()),
);

/** Families of such variables: the dynamic loader's, npm's and pip's settings, git's config, bash's exported functions. */
const CODE_LOADING_PREFIXES = ["LD_", "DYLD_", "NPM_CONFIG_", "PIP_", "GIT_CONFIG_", "BASH_FUNC_"];

/** The names in `env` that can make the server run code its command line does not show. */
export function codeLoadingVariables(env: Readonly<Record<string, string>>): string[] {
  return Object.keys(env).filter((name) => {
    const upper = name.toUpperCase();
    return (
      CODE_LOADING_VARIABLES.has(upper) || CODE_LOADING_PREFIXES.some((prefix) => upper.startsWith(prefix))
    );
  });
}
