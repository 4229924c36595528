/**
 * Terminal hyperlinks (OSC 8). Only links mcpterm builds from parsed markdown are ever wrapped:
 * model text reaches the markdown parser with every control sequence already stripped, so it
 * cannot open a link of its own, and a URL goes out only after `safeUrl` has normalized it.
 */

const OSC = "\u001b]8;;";
const ST = "\u001b\\";

/** Schemes a click may open; anything else (javascript:, file:, data:) is shown as text. */
const SCHEMES = new Set(["http:", "https:", "mailto:"]);
const MAX_URL = 2048;

/** The URL normalized (spaces and non-ASCII percent-encoded), or undefined when it must not be linked. */
export function safeUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (!SCHEMES.has(url.protocol)) return undefined;
  const text = url.href;
  // After URL serialization only printable ASCII should remain; anything else is refused outright.
  if (text.length > MAX_URL || !/^[\x21-\x7e]+$/.test(text)) return undefined;
  return text;
}

/** The escape that opens a link to `url` (already passed through `safeUrl`), and the one that closes it. */
export function linkEscapes(url: string): { open: string; close: string } {
  return { open: `${OSC}${url}${ST}`, close: `${OSC}${ST}` };
}

/**
 * Whether this terminal shows OSC 8 links, from its environment. Terminals that do not know the
 * sequence may print it or swallow the URL, so only known ones get links: `FORCE_HYPERLINK=1`
 * (or `0`) decides outright; NO_COLOR, a dumb terminal and tmux or screen (which may drop the
 * sequence, and the URL with it) get plain text.
 */
export function supportsHyperlinks(env: NodeJS.ProcessEnv): boolean {
  const forced = env.FORCE_HYPERLINK;
  if (forced !== undefined && forced !== "") return forced !== "0";
  if (env.NO_COLOR) return false;
  const term = env.TERM ?? "";
  if (term === "dumb" || env.TMUX || /^(tmux|screen)/.test(term)) return false;
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || env.DOMTERM) return true;
  if (/^(xterm-kitty|xterm-ghostty|alacritty|foot|wezterm)/.test(term)) return true;
  if (Number(env.VTE_VERSION ?? 0) >= 5000) return true;
  const program = env.TERM_PROGRAM;
  if (program === "WezTerm" || program === "ghostty") return true;
  if (program === "iTerm.app") return versionAtLeast(env.TERM_PROGRAM_VERSION, [3, 1]);
  if (program === "vscode") return versionAtLeast(env.TERM_PROGRAM_VERSION, [1, 72]);
  return false;
}

function versionAtLeast(version: string | undefined, [major, minor]: [number, number]): boolean {
  const [have = 0, haveMinor = 0] = (version ?? "").split(".").map(Number);
  return have > major || (have === major && haveMinor >= minor);
}
