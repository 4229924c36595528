import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  trace,
  type Context,
  type Span,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";

const propagator = new W3CTraceContextPropagator();

/** A W3C trace context carrier: what goes into a request's `_meta`. */
export type TraceCarrier = Record<string, string>;

/** `traceparent` (and `tracestate`, when there is one) naming `span` as the parent. */
export function carrierFor(span: Span): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagator.inject(trace.setSpan(ROOT_CONTEXT, span), carrier, defaultTextMapSetter);
  return carrier;
}

/** The context a `traceparent` (and `tracestate`) from outside names: mcpterm's spans become its children. */
export function contextFrom(carrier: { traceparent: string; tracestate?: string }): Context {
  return propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}

/** The span id a `traceparent` names (its third field), lower-case hex; undefined when it is not one. */
export function spanIdOf(traceparent: unknown): string | undefined {
  if (typeof traceparent !== "string") return undefined;
  const match = /^[0-9a-f]{2}-[0-9a-f]{32}-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent);
  return match?.[1];
}
