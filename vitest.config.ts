import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // Compiles the fixture servers once, before any worker starts.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Three workers on the two-core machines CI runs on: most of a test's time is spent waiting
    // on the processes it starts (servers, the binary, tmux), so a third file in flight fills
    // that wait — 187 s against 220 s for the whole suite, measured back to back, all passing.
    // Workers are reused across files (no fresh process and module graph per file, which cost
    // ~0.35 s a file); no test mocks modules or changes globals, and every file closes what it
    // starts.
    pool: "forks",
    maxWorkers: 3,
    isolate: false,
  },
});
