/**
 * Assembles streamed tool-call deltas into whole calls. Pure: no IO, so every server quirk it
 * tolerates has a one-line table test.
 */
import type { ToolCallRequest } from "./types.js";

/** One entry of `choices[0].delta.tool_calls`, as loosely as servers actually send it. */
export interface ToolCallDelta {
  index?: number | null;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

interface Slot {
  id: string;
  name: string;
  arguments: string;
}

export class ToolCallAssembler {
  private readonly slots: Slot[] = [];
  /** Which slot a wire `index` currently feeds; an index can be reused by a later call with a new id. */
  private readonly slotByIndex = new Map<number, Slot>();
  private last: Slot | undefined;

  push(delta: ToolCallDelta): void {
    const slot = this.slotFor(delta);
    const id = delta.id ?? "";
    if (id !== "" && slot.id === "") slot.id = id;
    const name = delta.function?.name ?? "";
    // Some servers repeat the whole name in every delta instead of sending pieces.
    if (name !== "" && name !== slot.name) slot.name += name;
    slot.arguments += delta.function?.arguments ?? "";
    this.last = slot;
  }

  /** The calls so far, in the order they started; calls that never got an id get a stable one. */
  result(): ToolCallRequest[] {
    return this.slots.map((slot, position) => ({
      id: slot.id === "" ? `call_${position}` : slot.id,
      name: slot.name,
      arguments: slot.arguments,
    }));
  }

  private slotFor(delta: ToolCallDelta): Slot {
    const id = delta.id ?? "";
    if (typeof delta.index === "number") {
      const existing = this.slotByIndex.get(delta.index);
      if (existing && (id === "" || existing.id === "" || existing.id === id)) return existing;
      const slot = this.open();
      this.slotByIndex.set(delta.index, slot);
      return slot;
    }
    // Without an index, a delta continues the last call unless it names a new one.
    if (this.last && (id === "" || this.last.id === "" || this.last.id === id)) return this.last;
    return this.open();
  }

  private open(): Slot {
    const slot: Slot = { id: "", name: "", arguments: "" };
    this.slots.push(slot);
    return slot;
  }
}

export function assembleToolCalls(deltas: readonly ToolCallDelta[]): ToolCallRequest[] {
  const assembler = new ToolCallAssembler();
  for (const delta of deltas) assembler.push(delta);
  return assembler.result();
}
