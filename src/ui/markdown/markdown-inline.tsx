import { Text } from "../parts/SafeText.js";
import type { Token, Tokens } from "marked";
import type { ReactNode } from "react";
import { linkEscapes, safeUrl } from "../parts/hyperlinks.js";
import { TerminalSequence } from "../parts/TerminalSequence.js";
import type { Theme } from "../parts/theme.js";

/** Inline markdown (emphasis, code, links) as styled terminal text. */
export function renderInline(tokens: readonly Token[] | undefined, theme: Theme, key: string): ReactNode[] {
  return (tokens ?? []).map((token, index) => {
    const id = `${key}.i${index}`;
    switch (token.type) {
      case "strong":
        return (
          <Text key={id} bold>
            {renderInline((token as Tokens.Strong).tokens, theme, id)}
          </Text>
        );
      case "em":
        return (
          <Text key={id} italic>
            {renderInline((token as Tokens.Em).tokens, theme, id)}
          </Text>
        );
      case "del":
        return (
          <Text key={id} strikethrough>
            {renderInline((token as Tokens.Del).tokens, theme, id)}
          </Text>
        );
      case "codespan":
        return (
          <Text key={id} color={theme.color("code")} bold={theme.noColor}>
            {(token as Tokens.Codespan).text}
          </Text>
        );
      case "link":
        return <Link key={id} link={token as Tokens.Link} theme={theme} id={id} />;
      case "br":
        return "\n";
      case "text": {
        const text = token as Tokens.Text;
        return text.tokens ? <Text key={id}>{renderInline(text.tokens, theme, id)}</Text> : decode(text.text);
      }
      case "escape":
        return decode((token as Tokens.Escape).text);
      default:
        return decode(token.raw);
    }
  });
}

/**
 * A link: a terminal hyperlink around its label where the terminal shows them and the URL is
 * safe to open, else the label with the URL after it, so the address is never hidden.
 */
function Link({ link, theme, id }: { link: Tokens.Link; theme: Theme; id: string }): ReactNode {
  const label = renderInline(link.tokens, theme, id);
  const url = theme.hyperlinks ? safeUrl(link.href) : undefined;
  if (url) {
    const { open, close } = linkEscapes(url);
    return (
      <Text underline color={theme.color("accent")}>
        <TerminalSequence sequence={open} />
        {label}
        <TerminalSequence sequence={close} />
      </Text>
    );
  }
  return (
    <Text>
      <Text underline color={theme.color("accent")}>
        {label}
      </Text>
      {link.text === link.href ? "" : <Text color={theme.color("muted")}> ({link.href})</Text>}
    </Text>
  );
}

/** The visible text of inline markdown, as `renderInline` draws it: what a table cell is measured by. */
export function inlineText(tokens: readonly Token[] | undefined, theme: Theme): string {
  return (tokens ?? [])
    .map((token): string => {
      switch (token.type) {
        case "strong":
        case "em":
        case "del":
          return inlineText((token as Tokens.Strong).tokens, theme);
        case "codespan":
          return (token as Tokens.Codespan).text;
        case "link": {
          const link = token as Tokens.Link;
          const label = inlineText(link.tokens, theme);
          const linked = theme.hyperlinks && safeUrl(link.href) !== undefined;
          return linked || link.text === link.href ? label : `${label} (${link.href})`;
        }
        case "br":
          return "\n";
        case "text": {
          const text = token as Tokens.Text;
          return text.tokens ? inlineText(text.tokens, theme) : decode(text.text);
        }
        case "escape":
          return decode((token as Tokens.Escape).text);
        default:
          return decode(token.raw);
      }
    })
    .join("");
}

/** marked escapes a few characters in inline text for HTML output; the terminal wants them back. */
export function decode(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}
