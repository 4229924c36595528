/**
 * Node's HTTP modules, required rather than imported. An ESM import of node:http builds its
 * namespace by reading every export, and three of them (WebSocket, CloseEvent, MessageEvent)
 * load Node's fetch (undici): about 35 ms, paid by every command whose modules import node:http
 * anywhere, `mcpterm -p` and `mcpterm tools` included, whether or not they send a request.
 */
import type * as Http from "node:http";
import type * as Https from "node:https";
import { createRequire } from "node:module";

const requireBuiltin = createRequire(import.meta.url);

export function nodeHttp(): typeof Http {
  return requireBuiltin("node:http") as typeof Http;
}

export function nodeHttps(): typeof Https {
  return requireBuiltin("node:https") as typeof Https;
}
