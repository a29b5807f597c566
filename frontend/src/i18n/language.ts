/**
 * The UI's languages and the one in use: the user's choice (remembered in this browser), else the
 * browser's (`zh*` → Chinese), else English. The catalogs are bundled: nothing is fetched.
 */
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { en } from "./messages-en";
import { zh } from "./messages-zh";

export const LANGUAGES = { en: "English", zh: "中文" } as const;
export type Language = keyof typeof LANGUAGES;
/** The BCP 47 tag `Intl` and `<html lang>` get for each language. */
export const LOCALE_OF: Record<Language, string> = { en: "en", zh: "zh-CN" };

const KEY = "moc.language";

export const isLanguage = (value: unknown): value is Language => typeof value === "string" && Object.hasOwn(LANGUAGES, value);

/** The user's saved choice, or the first of the browser's languages we speak. */
export function preferredLanguage(): Language {
  if (typeof window === "undefined") return "en";
  const saved = window.localStorage.getItem(KEY);
  if (isLanguage(saved)) return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.toLowerCase().split("-")[0];
    if (isLanguage(base)) return base;
  }
  return "en";
}

export function rememberLanguage(language: Language): void {
  window.localStorage.setItem(KEY, language);
}

// English first: the page is built ahead of time in English, and the browser's language is applied
// once it has hydrated (LanguageProvider), so the first render matches the built HTML.
void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, zh: { translation: zh } },
  lng: "en",
  fallbackLng: false,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export const i18n = i18next;

/** The language in use. */
export const currentLanguage = (): Language => (isLanguage(i18next.language) ? i18next.language : "en");
/** Its `Intl` locale. */
export const currentLocale = (): string => LOCALE_OF[currentLanguage()];
