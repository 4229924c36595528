export { clipText } from "./clip-text.js";
export {
  displayWidth,
  padToWidth,
  terminalStringWidth,
  truncateEnd,
  truncateMiddle,
  wrapWords,
} from "./display-width.js";
export { layoutColumns, type ColumnLayout, type ColumnOptions, type LaidOutRow } from "./column-layout.js";
export { firstLine, oneLine, summarizeArguments } from "./summaries.js";
export { base64Bytes, describeBase64, describeBlob, looksLikeBase64 } from "./blob.js";
export { countLines, formatBytes, formatDuration, localMinute, pluralize } from "./units.js";
