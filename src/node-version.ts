/**
 * The oldest Node mcpterm runs on: 22.15, the oldest the OpenTelemetry packages of live trace
 * export declare (`engines`). Before it, 22.13 was the first 22 that loads an ES module through
 * `require()` without an ExperimentalWarning on stderr (22.12 prints one over the TUI).
 */
const MINIMUM = { major: 22, minor: 15 } as const;

/** One sentence when `version` (process.versions.node, e.g. "22.12.0") is too old; else undefined. */
export function nodeVersionProblem(version: string): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  if (major > MINIMUM.major || (major === MINIMUM.major && minor >= MINIMUM.minor)) return undefined;
  return `mcpterm: needs Node.js ${MINIMUM.major}.${MINIMUM.minor} or newer, and this is v${version}; install Node 22 (see the README's quick start).`;
}
