import { describe, expect, it } from "vitest";
import { withheldVariables, withheldVariablesHint } from "../../src/core/config/withheld-variables.js";

const parentEnv = {
  PATH: "/usr/bin",
  HOME: "/home/me",
  WEATHER_API_KEY: "wk-123456",
  EMPTY_ONE: "",
  DB_URL: "pg://x",
};

describe("withheldVariables", () => {
  it("names what the text mentions that is set for mcpterm but not given to the server", () => {
    const said =
      "Error: WEATHER_API_KEY is not set; PATH is /bin; DB_URL missing; NOT_SET_ANYWHERE; EMPTY_ONE";
    expect(withheldVariables(said, parentEnv, {})).toEqual(["WEATHER_API_KEY", "DB_URL"]);
    // Given by the entry's env, or inherited by every server: nothing withheld.
    expect(withheldVariables(said, parentEnv, { WEATHER_API_KEY: "x", DB_URL: "y" })).toEqual([]);
  });

  it("takes only names a line says are missing, not a log tag, and names given after env", () => {
    const env = { DEBUG: "1", API_KEY: "k-123456" };
    expect(withheldVariables("[DEBUG] loading config", env, {})).toEqual([]);
    expect(withheldVariables("API_KEY is required", env, {})).toEqual(["API_KEY"]);
    const typed = { command: "env", args: ["-i", "API_KEY=wrong", "node", "server.js"] };
    expect(withheldVariables("API_KEY is required", env, {}, typed)).toEqual([]);
  });

  it("compares names regardless of case, as Windows spells them", () => {
    const windows = { Path: "C:\\bin", SystemRoot: "C:\\Windows", PATH: "C:\\bin" };
    expect(
      withheldVariables("command not found; check the command and PATH (not set?)", windows, {}),
    ).toEqual([]);
  });

  it("says how to pass them, by name only, for a config entry and for a server typed after --", () => {
    expect(withheldVariablesHint(["WEATHER_API_KEY"], { name: "weather" })).toBe(
      ' (WEATHER_API_KEY is set in your environment, but a server gets only the variables its entry names: add "env": { "WEATHER_API_KEY": "${WEATHER_API_KEY}" } to mcpServers.weather)',
    );
    expect(withheldVariablesHint(["A_KEY", "B_KEY"], { name: "node", typed: true })).toBe(
      ' (A_KEY, B_KEY are set in your environment, but a server gets only the variables its entry names: start it as -- env A_KEY="${A_KEY}" B_KEY="${B_KEY}" <command>)',
    );
    expect(withheldVariablesHint([], { name: "weather" })).toBe("");
  });
});
