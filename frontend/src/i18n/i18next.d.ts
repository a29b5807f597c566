import "i18next";
import type { en } from "./messages-en";

// Keys are checked at compile time: `t("no.such.key")` does not build.
declare module "i18next" {
  interface CustomTypeOptions {
    keySeparator: false;
    nsSeparator: false;
    resources: { translation: typeof en };
  }
}
