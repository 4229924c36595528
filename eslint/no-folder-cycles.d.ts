import type { Rule } from "eslint";

/** See no-folder-cycles.js: forbids import cycles between the folders of src/. */
export declare const noFolderCycles: Rule.RuleModule;
