/**
 * A real HTTP server speaking OpenAI's POST /v1/embeddings, with deterministic vectors: words of
 * one concept ("car", "automobile", "vehicle") share a dimension, so a search by meaning finds a
 * passage no word of the question is in. `behave` makes it lie the ways real endpoints do.
 */
import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";

export type EmbeddingsBehaviour =
  "ok" | "wrong-dimensions" | "nan" | "huge" | "stall" | "error" | "too-few" | "not-json";

export interface ScriptedEmbeddingsServer {
  /** e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** Every request's inputs and Authorization header, in order. */
  requests: Array<{ inputs: string[]; authorization: string | undefined }>;
  behave(behaviour: EmbeddingsBehaviour): void;
  close(): Promise<void>;
}

export const DIMENSIONS = 64;
const CONCEPTS = [
  ["car", "cars", "automobile", "automobiles", "vehicle", "vehicles", "motorcar"],
  ["cat", "cats", "kitten", "kittens", "feline", "felines"],
  ["deploy", "deploys", "release", "releases", "ship", "shipping", "rollout"],
  ["money", "budget", "cost", "costs", "spending", "invoice", "invoices"],
];

export function conceptVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((words) => words.includes(word));
    if (concept >= 0) vector[concept] = (vector[concept] ?? 0) + 1;
    else {
      const slot =
        CONCEPTS.length +
        ((createHash("sha1").update(word).digest()[0] ?? 0) % (DIMENSIONS - CONCEPTS.length));
      vector[slot] = (vector[slot] ?? 0) + 0.2;
    }
  }
  if (!vector.some((value) => value !== 0)) vector[DIMENSIONS - 1] = 1;
  return vector;
}

export async function startScriptedEmbeddingsServer(): Promise<ScriptedEmbeddingsServer> {
  let behaviour: EmbeddingsBehaviour = "ok";
  const requests: ScriptedEmbeddingsServer["requests"] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const parsed = JSON.parse(body) as { input: string[] };
      const authorization = request.headers.authorization;
      requests.push({ inputs: parsed.input, authorization });
      answer(response, behaviour, parsed.input);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    behave: (next) => {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function answer(response: ServerResponse, behaviour: EmbeddingsBehaviour, inputs: string[]): void {
  const data = (vector: (text: string, index: number) => unknown): string =>
    JSON.stringify({
      object: "list",
      data: inputs.map((text, index) => ({ object: "embedding", index, embedding: vector(text, index) })),
      model: "scripted",
    });
  switch (behaviour) {
    case "ok":
      return void response.end(data(conceptVector));
    case "wrong-dimensions":
      return void response.end(data((text, index) => conceptVector(text).slice(0, index === 0 ? 16 : 8)));
    case "nan":
      // JSON has no NaN or Infinity, but 1e999 parses as Infinity; null is no number either.
      return void response.end(
        data((text) => ["NOT_A_NUMBER", null, ...conceptVector(text).slice(2)]).replace(
          '"NOT_A_NUMBER"',
          "1e999",
        ),
      );
    case "huge": {
      response.write('{"data":[{"embedding":[');
      const block = "0.1,".repeat(100_000);
      const pump = (): void => {
        while (response.write(block)) {
          /* keep writing until the socket pushes back */
        }
        response.once("drain", pump);
      };
      response.on("close", () => response.removeAllListeners("drain"));
      pump();
      return;
    }
    case "stall":
      response.write('{"data":[');
      return;
    case "error":
      response.statusCode = 500;
      return void response.end('{"error":{"message":"model not loaded"}}');
    case "too-few":
      return void response.end(JSON.stringify({ data: [] }));
    case "not-json":
      return void response.end("<html>proxy error</html>");
  }
}

/**
 * Makes `dir` a project whose knowledge_base holds `notes` (file name to text) and whose config
 * asks the scripted endpoint at `baseUrl` for vectors.
 */
export async function embeddingsProject(
  dir: string,
  baseUrl: string,
  notes: Readonly<Record<string, string>>,
): Promise<void> {
  await mkdir(path.join(dir, "knowledge_base"));
  for (const [name, text] of Object.entries(notes))
    await writeFile(path.join(dir, "knowledge_base", name), text);
  await writeFile(
    path.join(dir, "mcp.config.json"),
    JSON.stringify({ kb: { embeddings: { model: "scripted", baseUrl } } }),
  );
}
