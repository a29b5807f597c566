"use client";
import { type ReactNode, useLayoutEffect } from "react";
import { useTranslation } from "react-i18next";
import { currentLanguage, i18n, type Language, LOCALE_OF, preferredLanguage, rememberLanguage } from "./language";

/** Applies the preferred language once the page has hydrated and keeps `<html lang>` in step. */
export function LanguageProvider({ children }: { children: ReactNode }) {
  useLayoutEffect(() => {
    const follow = (language: string) => {
      document.documentElement.lang = LOCALE_OF[language as Language] ?? "en";
    };
    i18n.on("languageChanged", follow);
    void i18n.changeLanguage(preferredLanguage());
    return () => i18n.off("languageChanged", follow);
  }, []);
  return children;
}

/** The language in use and a way to change it (remembered; no reload). */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => void } {
  useTranslation(); // re-renders the caller when the language changes
  return {
    language: currentLanguage(),
    setLanguage: (language) => {
      rememberLanguage(language);
      void i18n.changeLanguage(language);
    },
  };
}
