/**
 * Variables a stdio server inherits from mcpterm: enough to find programs, locate home and temp
 * folders, print text in the user's locale and go through a proxy. Everything else, API keys
 * above all, reaches a server only when its config names it.
 */
const INHERITED = new Set(
  [
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "TERM",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TMPDIR",
    "TEMP",
    "TMP",
    "NODE_EXTRA_CA_CERTS",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    // Windows: without these, node, npx and python fail to start or cannot find their files.
    "SYSTEMROOT",
    "SYSTEMDRIVE",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "APPDATA",
    "LOCALAPPDATA",
    "USERPROFILE",
    "HOMEDRIVE",
    "HOMEPATH",
    "PROGRAMDATA",
    "PROGRAMFILES",
    "PROGRAMFILES(X86)",
    "PROCESSOR_ARCHITECTURE",
    "USERNAME",
  ].map((name) => name.toUpperCase()),
);

/** Windows spells variables in any case and proxies are often lower-case (`https_proxy`). */
function isInherited(name: string): boolean {
  const upper = name.toUpperCase();
  return INHERITED.has(upper) || upper.startsWith("LC_");
}

export function serverEnvironment(
  parentEnv: NodeJS.ProcessEnv,
  configured: Record<string, string>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    // Exported bash functions ("() { …") can smuggle code into a child shell (Shellshock).
    if (value === undefined || value.startsWith("()") || !isInherited(name)) continue;
    result[name] = value;
  }
  return { ...result, ...configured };
}
