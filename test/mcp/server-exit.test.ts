import { describe, expect, it } from "vitest";
import {
  exitSentence,
  howItEnded,
  serverExitReport,
  stderrEssentials,
} from "../../src/core/mcp/server-exit.js";

/** Crash reports as Node 22 and Python 3 print them (paths shortened). */
const NODE_SYNTAX_ERROR = `file:///srv/notes.mjs:2
const x = ;
          ^

SyntaxError: Unexpected token ';'
    at compileSourceTextModule (node:internal/modules/esm/utils:346:16)
    at ModuleLoader.moduleStrategy (node:internal/modules/esm/translators:110:18)
    at #translate (node:internal/modules/esm/loader:559:20)
    at afterLoad (node:internal/modules/esm/loader:612:29)
    at ModuleLoader.loadAndTranslate (node:internal/modules/esm/loader:617:12)
    at #createModuleJob (node:internal/modules/esm/loader:640:36)

Node.js v22.23.5`;

const NODE_TYPE_ERROR = `notes: ready
notes: error: could not read ~/.notesrc, using defaults
file:///srv/notes.mjs:2
setImmediate(() => { const a = undefined; a.title; });
                                            ^

TypeError: Cannot read properties of undefined (reading 'title')
    at Immediate.<anonymous> (file:///srv/notes.mjs:2:45)
    at process.processImmediate (node:internal/timers:484:21)

Node.js v22.23.5`;

const NODE_WITH_CAUSE = `file:///srv/cause.mjs:2
setImmediate(() => { throw e });
                     ^

Error: db failed
    at file:///srv/cause.mjs:1:11
    at ModuleJob.run (node:internal/modules/esm/module_job:343:25) {
  [cause]: Error: ENOENT: no such file /x
      at file:///srv/cause.mjs:1:42
}

Node.js v22.23.5`;

const NODE_MODULE_NOT_FOUND = `node:internal/modules/esm/resolve:275
    throw new ERR_MODULE_NOT_FOUND(
          ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/srv/db.js' imported from /srv/notes.mjs
    at finalizeResolution (node:internal/modules/esm/resolve:275:11)
    at moduleResolve (node:internal/modules/esm/resolve:865:10) {
  code: 'ERR_MODULE_NOT_FOUND',
  url: 'file:///srv/db.js'
}

Node.js v22.23.5`;

const PYTHON_KEY_ERROR = `Traceback (most recent call last):
  File "/srv/server.py", line 3, in <module>
    f()
  File "/srv/server.py", line 2, in handle
    return {}["title"]
           ~~^^^^^^^^^
KeyError: 'title'`;

const PYTHON_CHAINED = `Traceback (most recent call last):
  File "/srv/server.py", line 4, in load
    open("/nope")
FileNotFoundError: [Errno 2] No such file or directory: '/nope'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/srv/server.py", line 8, in main
    raise RuntimeError("no config")
RuntimeError: no config`;

const lines = (text: string): string[] => text.split("\n");

describe("stderrEssentials", () => {
  it.each([
    [
      "a Node SyntaxError at start, whose frames are all Node's",
      NODE_SYNTAX_ERROR,
      {
        errorLine: "SyntaxError: Unexpected token ';'",
        location: "file:///srv/notes.mjs:2",
        cause: undefined,
      },
    ],
    [
      "an uncaught TypeError, past a log line that mentions error",
      NODE_TYPE_ERROR,
      {
        errorLine: "TypeError: Cannot read properties of undefined (reading 'title')",
        location: "file:///srv/notes.mjs:2:45",
        cause: undefined,
      },
    ],
    [
      "a Node error with a cause",
      NODE_WITH_CAUSE,
      {
        errorLine: "Error: db failed",
        location: "file:///srv/cause.mjs:1:11",
        cause: "Error: ENOENT: no such file /x",
      },
    ],
    [
      "a missing module, thrown inside Node",
      NODE_MODULE_NOT_FOUND,
      {
        errorLine:
          "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/srv/db.js' imported from /srv/notes.mjs",
        location: undefined,
        cause: undefined,
      },
    ],
    [
      "a failure inside JSON.parse: the first frame in a file",
      "<anonymous_script>:1\n{ storage: 'notes.db' }\n  ^\n\nSyntaxError: Expected property name or '}' in JSON at position 2\n    at JSON.parse (<anonymous>)\n    at parseSettings (file:///srv/notes.js:12:15)\n",
      {
        errorLine: "SyntaxError: Expected property name or '}' in JSON at position 2",
        location: "file:///srv/notes.js:12:15",
        cause: undefined,
      },
    ],
    [
      "a Python traceback: the exception is its last line",
      PYTHON_KEY_ERROR,
      { errorLine: "KeyError: 'title'", location: "/srv/server.py:2 (in handle)", cause: undefined },
    ],
    [
      "a chained Python exception: its root, printed first",
      PYTHON_CHAINED,
      {
        errorLine: "FileNotFoundError: [Errno 2] No such file or directory: '/nope'",
        location: "/srv/server.py:4 (in load)",
        cause: undefined,
      },
    ],
    [
      "a Go panic",
      "starting\npanic: runtime error: index out of range [3] with length 2\n\ngoroutine 1 [running]:",
      {
        errorLine: "panic: runtime error: index out of range [3] with length 2",
        location: undefined,
        cause: undefined,
      },
    ],
    [
      "a plain message and no stack: the line that says error",
      "notes: starting\nnotes: cannot open database /nonexistent/db.sqlite: failed\n",
      {
        errorLine: "notes: cannot open database /nonexistent/db.sqlite: failed",
        location: undefined,
        cause: undefined,
      },
    ],
    [
      "nothing that says error: the last line",
      "notes: starting\nnotes: bye\n",
      { errorLine: "notes: bye", location: undefined, cause: undefined },
    ],
    ["nothing at all", "", { errorLine: undefined, location: undefined, cause: undefined }],
  ])("%s", (_name, stderr, expected) => {
    expect(stderrEssentials(lines(stderr))).toEqual(expected);
  });

  it("finds the error line past a long stack that a tail of stderr would have cut it from", () => {
    const long = [
      "file:///srv/notes.mjs:1",
      "import x from 'y';",
      "^",
      "",
      "SyntaxError: The requested module 'y' does not provide an export named 'default'",
      ...Array.from({ length: 30 }, (_, index) => `    at frame${index} (node:internal/x:${index}:1)`),
      "",
      "Node.js v22.23.5",
    ];
    expect(stderrEssentials(long).errorLine).toBe(
      "SyntaxError: The requested module 'y' does not provide an export named 'default'",
    );
  });
});

describe("exitSentence", () => {
  it("names the server, how it ended and the error with where it was thrown", () => {
    const report = serverExitReport({ code: 1, signal: null }, lines(NODE_TYPE_ERROR));
    expect(exitSentence("notes", report)).toBe(
      `server "notes" exited (code 1): TypeError: Cannot read properties of undefined (reading 'title') (at file:///srv/notes.mjs:2:45)`,
    );
    expect(report.stderr).toHaveLength(lines(NODE_TYPE_ERROR).length);
  });

  it("names a signal, and says nothing more when stderr was empty", () => {
    expect(exitSentence("notes", serverExitReport({ code: null, signal: "SIGKILL" }, []))).toBe(
      'server "notes" was killed by SIGKILL',
    );
    expect(howItEnded({ code: 0, signal: null })).toBe("exited (code 0)");
  });
});
