import path from "node:path";

/** How a file is chunked: along headings, at top-level code blocks, or at paragraphs. */
export type FileKind = "markdown" | "rst" | "code" | "text";

const MARKDOWN = new Set([".md", ".markdown", ".mdx", ".mdown", ".mkd"]);
const RST = new Set([".rst"]);
/** Source code and structured data: both break well at blank lines and unindented lines. */
const CODE = new Set(
  `.ts .tsx .mts .cts .js .jsx .mjs .cjs .py .rb .go .rs .java .kt .kts .scala .swift .c .h .cc .cpp .cxx .hpp
  .cs .php .pl .lua .r .sh .bash .zsh .fish .ps1 .sql .css .scss .less .html .htm .xml .svg .vue .svelte
  .json .jsonl .jsonc .json5 .yaml .yml .toml .ini .cfg .conf .properties .env .tf .proto .graphql .gradle
  .dockerfile .makefile .cmake`.split(/\s+/),
);
/** Known binary formats are skipped without reading them; anything else is sniffed. */
const BINARY = new Set(
  `.png .jpg .jpeg .gif .webp .bmp .ico .tif .tiff .psd .heic .pdf .doc .docx .xls .xlsx .ppt .pptx .odt
  .zip .gz .tgz .bz2 .xz .7z .rar .zst .tar .jar .war .class .exe .dll .so .dylib .o .a .lib .wasm .pyc
  .mp3 .mp4 .m4a .mov .avi .mkv .webm .wav .flac .ogg .woff .woff2 .ttf .otf .eot .sqlite .db .bin .iso
  .dmg .node`.split(/\s+/),
);

export function isKnownBinary(file: string): boolean {
  return BINARY.has(path.extname(file).toLowerCase());
}

export function fileKind(file: string): FileKind {
  const ext = path.extname(file).toLowerCase();
  if (MARKDOWN.has(ext)) return "markdown";
  if (RST.has(ext)) return "rst";
  if (CODE.has(ext)) return "code";
  const base = path.basename(file).toLowerCase();
  return base === "dockerfile" || base === "makefile" ? "code" : "text";
}
