import { describe, expect, it } from "vitest";
import { fitParts, type Part } from "../../src/ui/parts/fit-parts.js";

const part = (text: string, priority: number, short?: string): Part => ({
  text,
  priority,
  tag: undefined,
  ...(short === undefined ? {} : { short }),
});
const parts = [part("model-x", 9), part("2/2 servers ready", 5, "2/2 srv"), part("kb 12 chunks", 1, "kb 12")];
const fittedLine = (width: number, list = parts): string =>
  fitParts(list, width)
    .map((entry) => entry.text)
    .join(" · ");

describe("fitParts", () => {
  it.each([
    [80, "model-x · 2/2 servers ready · kb 12 chunks"],
    [40, "model-x · 2/2 servers ready · kb 12"],
    [25, "model-x · 2/2 srv · kb 12"],
    [24, "model-x · 2/2 srv"],
    [17, "model-x · 2/2 srv"],
    [10, "model-x"],
    [5, "mode…"],
  ])("at %i columns: %s", (width, expected) => {
    expect(fittedLine(width)).toBe(expected);
  });

  it("measures wide characters by their columns", () => {
    const wide = [part("模型名", 9), part("知识库", 1)];
    expect(fittedLine(15, wide)).toBe("模型名 · 知识库");
    expect(fittedLine(14, wide)).toBe("模型名");
    expect(fittedLine(5, wide)).toBe("模型…");
  });
});
