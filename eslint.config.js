// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import { noFolderCycles } from "./eslint/no-folder-cycles.js";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "coverage/**", ".mcpterm/**"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "react-hooks": reactHooks, layers: { rules: { "no-folder-cycles": noFolderCycles } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-confusing-void-expression": ["error", { ignoreArrowShorthand: true }],
    },
  },
  {
    // Arrows point one way between the folders of src/ (see shared/DESIGN.md).
    files: ["src/**"],
    rules: { "layers/no-folder-cycles": "error" },
  },
  {
    // The core is UI-free and knows nothing of the command line: the front ends use it, never the reverse.
    files: ["src/core/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["react", "react/*", "ink", "ink-*"], message: "src/core is UI-free." },
            { group: ["**/ui/**"], message: "src/core must not import src/ui." },
            { group: ["**/headless/**"], message: "src/core must not import src/headless." },
            { group: ["**/common/**"], message: "src/core must not import src/common." },
            {
              group: ["**/args.js", "**/run-command.js", "**/cli.js"],
              message: "src/core must not know the command line.",
            },
          ],
        },
      ],
    },
  },
  {
    // The TUI and the headless commands sit side by side over core; what both need is in src/common.
    // Text is drawn only through ui/parts/SafeText, which sanitizes every string it is given.
    files: ["src/ui/**"],
    ignores: ["src/ui/parts/SafeText.tsx", "src/ui/parts/TerminalSequence.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ group: ["**/headless/**"], message: "src/ui must not import src/headless." }],
          paths: [
            {
              name: "ink",
              importNames: ["Text"],
              message: "Draw text with Text from src/ui/parts/SafeText.tsx, which sanitizes it.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/headless/**", "src/common/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["**/ui/**", "react", "ink"], message: "Only src/ui draws the terminal." }] },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
