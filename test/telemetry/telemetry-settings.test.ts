import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/core/errors.js";
import { resolveTelemetry } from "../../src/core/telemetry/telemetry-settings.js";

const resolve = (env: NodeJS.ProcessEnv, user = {}, flag?: string) => resolveTelemetry({ flag, env, user });

describe("whether and where spans are exported", () => {
  it("is off unless the flag, OTEL_TRACES_EXPORTER or the user's settings ask", () => {
    expect(resolve({}).settings).toBeUndefined();
    expect(resolve({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).settings).toBeUndefined();
    expect(resolve({ OTEL_TRACES_EXPORTER: "otlp" }).settings?.url).toBe("http://localhost:4318/v1/traces");
    expect(resolve({}, { enabled: true }).settings?.url).toBe("http://localhost:4318/v1/traces");
    expect(resolve({}, { endpoint: "http://collector:4318" }).settings?.url).toBe(
      "http://collector:4318/v1/traces",
    );
    expect(resolve({}, {}, "http://flag:4318").settings?.source).toBe("--otlp-endpoint");
  });

  it("OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none turn off what the settings turned on", () => {
    expect(resolve({ OTEL_SDK_DISABLED: "true" }, { enabled: true }).settings).toBeUndefined();
    expect(resolve({ OTEL_TRACES_EXPORTER: "none" }, { enabled: true }).settings).toBeUndefined();
  });

  it("reads the endpoints as the specification says: the signal's URL as given, the base with /v1/traces", () => {
    const env = { OTEL_TRACES_EXPORTER: "otlp" };
    expect(resolve({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: "https://c.example/otlp/" }).settings?.url).toBe(
      "https://c.example/otlp/v1/traces",
    );
    expect(
      resolve({
        ...env,
        OTEL_EXPORTER_OTLP_ENDPOINT: "https://base.example",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://c.example/custom/traces",
      }).settings?.url,
    ).toBe("https://c.example/custom/traces");
    // The flag outranks the environment, which outranks the settings.
    expect(
      resolve({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" }, { endpoint: "http://user:4318" })
        .settings?.url,
    ).toBe("http://env:4318/v1/traces");
    expect(
      resolve({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" }, {}, "http://flag:4318").settings
        ?.url,
    ).toBe("http://flag:4318/v1/traces");
  });

  it("decodes headers and resource attributes, and names an entry it cannot read without quoting it", () => {
    const { settings, warnings } = resolve(
      {
        OTEL_TRACES_EXPORTER: "otlp",
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc,broken-entry-secret",
        OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=ci,service.name=from-resource",
      },
      { headers: { "x-team": "a" } },
    );
    expect(settings?.headers).toEqual({ "x-team": "a", authorization: "Bearer abc" });
    expect(settings?.resourceAttributes["deployment.environment"]).toBe("ci");
    expect(settings?.serviceName).toBe("from-resource");
    expect(warnings).toEqual(["OTEL_EXPORTER_OTLP_HEADERS: entry 2 is not key=value; it is left out."]);
  });

  it("sends protobuf unless JSON is asked for, and says why gRPC is not used", () => {
    const env = { OTEL_TRACES_EXPORTER: "otlp" };
    expect(resolve(env).settings?.protocol).toBe("http/protobuf");
    expect(resolve({ ...env, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }).settings?.protocol).toBe(
      "http/json",
    );
    expect(resolve(env, { protocol: "http/json" }).settings?.protocol).toBe("http/json");
    const grpc = resolve({ ...env, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" });
    expect(grpc.settings?.protocol).toBe("http/protobuf");
    expect(grpc.warnings[0]).toMatch(/grpc is not supported.*4318/);
  });

  it("captures contents only when asked, by the GenAI variable or the settings", () => {
    const env = { OTEL_TRACES_EXPORTER: "otlp" };
    expect(resolve(env).settings?.captureContent).toBe(false);
    expect(
      resolve({ ...env, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" }).settings
        ?.captureContent,
    ).toBe(true);
    expect(resolve(env, { captureContent: true }).settings?.captureContent).toBe(true);
  });

  it("a bad endpoint in the environment is a warning and no export; a bad flag is a usage error", () => {
    const bad = resolve({ OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" });
    expect(bad.settings).toBeUndefined();
    expect(bad.warnings[0]).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT is not an http:\/\/ or https:\/\/ URL/);
    expect(() => resolve({}, {}, "collector:4318")).toThrow(UsageError);
  });

  it("a number a timer or the queue cannot use is a warning and the default, never a crash or a silent loss", () => {
    const on = { OTEL_TRACES_EXPORTER: "otlp" };
    const zero = resolve({ ...on, OTEL_EXPORTER_OTLP_TIMEOUT: "0" });
    expect(zero.settings?.timeoutMs).toBe(5000);
    expect(zero.warnings).toEqual([
      "OTEL_EXPORTER_OTLP_TIMEOUT=0 is not a whole number of milliseconds from 1 to 2147483647; mcpterm uses the default, 5000.",
    ]);
    // Past a timer's reach, Node fires at once: every export would give up before it began.
    const huge = resolve({ ...on, OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "2147483648" });
    expect(huge.settings?.timeoutMs).toBe(5000);
    expect(huge.warnings[0]).toMatch(/^OTEL_EXPORTER_OTLP_TRACES_TIMEOUT=2147483648 is not/);
    expect(resolve({ ...on, OTEL_EXPORTER_OTLP_TIMEOUT: "750" }).settings?.timeoutMs).toBe(750);
    // The signal's own variable unusable, the general one is used.
    const general = resolve({
      ...on,
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "abc",
      OTEL_EXPORTER_OTLP_TIMEOUT: "3000",
    });
    expect(general.settings?.timeoutMs).toBe(3000);
    expect(general.warnings).toEqual([
      "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT=abc is not a whole number of milliseconds from 1 to 2147483647; mcpterm uses OTEL_EXPORTER_OTLP_TIMEOUT=3000.",
    ]);
    expect(resolve({ ...on, OTEL_EXPORTER_OTLP_TIMEOUT: "2s" }).warnings[0]).toMatch(/=2s is not/);
    // A queue of none drops every span.
    const queue = resolve({ ...on, OTEL_BSP_MAX_QUEUE_SIZE: "0", OTEL_BSP_SCHEDULE_DELAY: "0" });
    expect(queue.settings).toMatchObject({ maxQueueSize: 2048, scheduleDelayMs: 0 });
    expect(queue.warnings).toEqual([
      "OTEL_BSP_MAX_QUEUE_SIZE=0 is not a whole number of spans from 1 to 100000; mcpterm uses the default, 2048.",
    ]);
    const flush = resolve(on, { exitFlushMs: 1e12 });
    expect(flush.settings?.exitFlushMs).toBe(2000);
    expect(flush.warnings[0]).toMatch(
      /^telemetry\.exitFlushMs in your settings \(1000000000000\) is more than/,
    );
    expect(resolve(on, { exitFlushMs: 0 }).settings?.exitFlushMs).toBe(0);
  });

  it("sends a URL's user name and password as Basic authorization, as for a remote MCP server", () => {
    const on = {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://alice:p%40ss@collector:4318",
    };
    const settings = resolve(on).settings;
    expect(settings?.url).toBe("http://collector:4318/v1/traces");
    expect(settings?.headers).toEqual({
      Authorization: `Basic ${Buffer.from("alice:p@ss").toString("base64")}`,
    });
    // With an Authorization header too, which one is meant is not guessed: no export, said why.
    const both = resolve({ ...on, OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20tok" });
    expect(both.settings).toBeUndefined();
    expect(both.warnings).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT holds a user name and password, and the collector's headers have an Authorization header too; keep one of the two. No traces are exported.",
    ]);
  });

  it("runs inside the trace TRACEPARENT names (as CI systems set it), when it is a valid one", () => {
    const env = { OTEL_TRACES_EXPORTER: "otlp" };
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    expect(resolve({ ...env, TRACEPARENT: traceparent }).settings?.parent).toEqual({ traceparent });
    expect(resolve({ ...env, TRACEPARENT: "not-one" }).settings?.parent).toBeUndefined();
  });
});
