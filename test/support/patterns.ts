/**
 * A duration as the trace renderers print it: "850 ms", "1.2 s" (once "1.24 s") or "2 min 5 s". How long a
 * step took depends on the machine's load, so tests accept every form and never a bound. Use it
 * in `new RegExp(String.raw`... ${DURATION} ...`)`.
 */
export const DURATION = String.raw`(?:\d+ ms|\d+\.\d{1,2} s|\d+ min \d+ s)`;
