/**
 * Just enough of RFC 6570 to complete a URI being typed from a resource template: the template
 * as literal text and variables, and where in it a partly typed URI has got to.
 */

type Piece = { kind: "literal"; text: string } | { kind: "variable"; name: string };

/** What each expression operator writes before its first variable, and between variables. */
const OPERATORS: Record<string, { first: string; between: string; named: boolean }> = {
  "": { first: "", between: ",", named: false },
  "+": { first: "", between: ",", named: false },
  "#": { first: "#", between: ",", named: false },
  ".": { first: ".", between: ".", named: false },
  "/": { first: "/", between: "/", named: false },
  ";": { first: ";", between: ";", named: true },
  "?": { first: "?", between: "&", named: true },
  "&": { first: "&", between: "&", named: true },
};

/** The template as literal text and single variables, in order; operators become the literals they write. */
export function templatePieces(template: string): Piece[] {
  const pieces: Piece[] = [];
  const literal = (text: string): void => {
    if (text === "") return;
    const last = pieces.at(-1);
    if (last?.kind === "literal") last.text += text;
    else pieces.push({ kind: "literal", text });
  };
  let rest = template;
  for (let open = rest.indexOf("{"); open >= 0; open = rest.indexOf("{")) {
    const close = rest.indexOf("}", open);
    if (close < 0) break;
    literal(rest.slice(0, open));
    const expression = rest.slice(open + 1, close);
    const operator = OPERATORS[expression.charAt(0)] ? expression.charAt(0) : "";
    const { first, between, named } = OPERATORS[operator] ?? { first: "", between: ",", named: false };
    const names = expression
      .slice(operator.length)
      .split(",")
      .map((name) => name.replace(/[*]$|:\d+$/, "").trim())
      .filter((name) => name !== "");
    names.forEach((name, index) => {
      literal(index === 0 ? first : between);
      if (named) literal(`${name}=`);
      pieces.push({ kind: "variable", name });
    });
    rest = rest.slice(close + 1);
  }
  literal(rest);
  return pieces;
}

/** Where a partly typed URI stands in a template. */
export type TemplateProgress =
  /** Still in literal text: `text` is the template up to its next variable (or its end). */
  | { kind: "literal"; text: string }
  /**
   * Inside variable `name`, typed as `value` so far; `typed` is the URI up to the value, `next`
   * the literal that follows the variable, and `earlier` the values of the variables before it.
   */
  | {
      kind: "variable";
      name: string;
      value: string;
      typed: string;
      next: string;
      earlier: Record<string, string>;
    };

/**
 * How far `typed` (the start of a URI) follows `template`, or undefined when it leaves it. A
 * variable's value runs up to the first character of the literal after it.
 */
export function templateProgress(template: string, typed: string): TemplateProgress | undefined {
  const pieces = templatePieces(template);
  const earlier: Record<string, string> = {};
  let at = 0;
  for (let index = 0; index < pieces.length; index += 1) {
    const piece = pieces[index];
    if (!piece) break;
    const rest = typed.slice(at);
    if (piece.kind === "literal") {
      if (rest.startsWith(piece.text)) {
        at += piece.text.length;
        continue;
      }
      if (!piece.text.startsWith(rest)) return undefined;
      return { kind: "literal", text: typed.slice(0, at) + piece.text };
    }
    const following = pieces[index + 1];
    const next = following?.kind === "literal" ? following.text : "";
    const end = next === "" ? -1 : rest.indexOf(next.charAt(0));
    if (end < 0) {
      return { kind: "variable", name: piece.name, value: rest, typed: typed.slice(0, at), next, earlier };
    }
    earlier[piece.name] = rest.slice(0, end);
    at += end;
  }
  return at === typed.length ? { kind: "literal", text: typed } : undefined;
}

/** The template's text up to its first variable: what every URI made from it starts with. */
export function templatePrefix(template: string): string {
  const first = templatePieces(template)[0];
  return first?.kind === "literal" ? first.text : "";
}
