/** The terminal image protocols mcpterm can draw with; "none" describes images instead. */
export type ImageProtocol = "kitty" | "iterm2" | "none";

/**
 * Which image protocol the terminal speaks, from what terminals say of themselves: kitty sets
 * TERM=xterm-kitty (and KITTY_WINDOW_ID), iTerm2 and WezTerm set TERM_PROGRAM. Anything else,
 * or MCPTERM_NO_IMAGES, or a terminal inside tmux or screen (which swallow these sequences):
 * none, and images stay described.
 */
export function imageProtocol(env: NodeJS.ProcessEnv): ImageProtocol {
  if (env.MCPTERM_NO_IMAGES || env.TMUX || env.TERM?.startsWith("screen")) return "none";
  if (env.TERM === "xterm-kitty" || env.KITTY_WINDOW_ID) return "kitty";
  if (env.TERM_PROGRAM === "iTerm.app" || env.TERM_PROGRAM === "WezTerm") return "iterm2";
  return "none";
}

/** Larger images stay described: a terminal is not an image viewer, and a flood should not draw. */
export const MAX_INLINE_IMAGE_BYTES = 2 * 1024 * 1024;
const KITTY_CHUNK = 4096;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The escape sequence that draws one image inline, or undefined when it cannot be drawn safely:
 * data that is not strict base64 (it is the only thing placed inside the sequence, so nothing a
 * server sends can end it early), too large, or of a type the protocol does not take (kitty
 * draws PNG only; iTerm2 any image).
 */
export function inlineImageSequence(
  protocol: ImageProtocol,
  mimeType: string,
  data: string,
): string | undefined {
  if (protocol === "none" || !mimeType.startsWith("image/")) return undefined;
  const compact = data.replace(/\s/g, "");
  if (compact === "" || !BASE64.test(compact)) return undefined;
  const bytes = Math.floor((compact.length * 3) / 4);
  if (bytes > MAX_INLINE_IMAGE_BYTES) return undefined;
  if (protocol === "iterm2")
    return `\u001b]1337;File=inline=1;size=${bytes};preserveAspectRatio=1:${compact}\u0007\n`;
  if (mimeType !== "image/png") return undefined;
  const chunks: string[] = [];
  for (let start = 0; start < compact.length; start += KITTY_CHUNK) {
    const more = start + KITTY_CHUNK < compact.length ? 1 : 0;
    const head = start === 0 ? `a=T,f=100,m=${more}` : `m=${more}`;
    chunks.push(`\u001b_G${head};${compact.slice(start, start + KITTY_CHUNK)}\u001b\\`);
  }
  return `${chunks.join("")}\n`;
}
