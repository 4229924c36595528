import { createContext, useContext } from "react";
import type { Tier } from "../../core/policy/tiers.js";
import { supportsHyperlinks } from "./hyperlinks.js";

export type ColorRole =
  "accent" | "muted" | "user" | "success" | "warning" | "error" | "code" | "highlight" | `tier.${Tier}`;

export interface Theme {
  /** The colour for a role, or undefined when colour is off (NO_COLOR). */
  color(role: ColorRole): string | undefined;
  noColor: boolean;
  /** Links may be drawn as terminal hyperlinks (OSC 8). */
  hyperlinks: boolean;
}

const COLORS: Record<ColorRole, string> = {
  accent: "cyan",
  muted: "gray",
  user: "blueBright",
  success: "green",
  warning: "yellow",
  error: "red",
  code: "yellowBright",
  highlight: "magentaBright",
  "tier.read_only": "green",
  "tier.low_risk": "cyan",
  "tier.dangerous": "red",
  "tier.external": "magenta",
};

/** NO_COLOR (any non-empty value, see no-color.org) turns every colour off; layout and bold stay. */
export function themeFor(env: NodeJS.ProcessEnv): Theme {
  const noColor = Boolean(env.NO_COLOR);
  return {
    noColor,
    hyperlinks: supportsHyperlinks(env),
    color: (role) => (noColor ? undefined : COLORS[role]),
  };
}

export const ThemeContext = createContext<Theme>(themeFor({}));

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
