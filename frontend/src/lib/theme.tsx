"use client";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";

export type ThemePreference = "light" | "dark" | "system";
const KEY = "moc.theme";

interface ThemeState {
  preference: ThemePreference;
  /** What shows: the preference, or the system's for "system". */
  resolved: "light" | "dark";
  setPreference: (preference: ThemePreference) => void;
}

const ThemeContext = createContext<ThemeState>({ preference: "system", resolved: "light", setPreference: () => {} });

const saved = (): ThemePreference => {
  const value = typeof window === "undefined" ? null : window.localStorage.getItem(KEY);
  return value === "light" || value === "dark" ? value : "system";
};

/** The theme: the user's choice (Light, Dark, System), persisted; System follows prefers-color-scheme as it changes. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [preference, setPreferenceState] = useState<ThemePreference>("system");
  const [systemDark, setSystemDark] = useState(false);
  useEffect(() => {
    setPreferenceState(saved());
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    setSystemDark(media.matches);
    const changed = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    media.addEventListener("change", changed);
    return () => media.removeEventListener("change", changed);
  }, []);
  const resolved = preference === "system" ? (systemDark ? "dark" : "light") : preference;
  useEffect(() => {
    document.documentElement.classList.toggle("dark", resolved === "dark");
  }, [resolved]);
  const setPreference = (next: ThemePreference) => {
    window.localStorage.setItem(KEY, next);
    setPreferenceState(next);
  };
  return <ThemeContext.Provider value={{ preference, resolved, setPreference }}>{children}</ThemeContext.Provider>;
}

export const useTheme = () => useContext(ThemeContext);
