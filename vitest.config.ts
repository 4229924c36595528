import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // Compiles the fixture servers once, before any worker starts.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two workers for two cores: most of a test's time is spent in the processes it starts, and
    // more workers only add contention there. Workers are reused across files (no fresh process
    // and module graph per file, which cost ~0.35 s a file); no test mocks modules or changes
    // globals, and every file closes what it starts.
    pool: "forks",
    maxWorkers: 2,
    isolate: false,
  },
});
