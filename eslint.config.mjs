// One linter for the three packages: ESLint's and typescript-eslint's recommended rules, and React's
// hooks rules for the UI. Type-aware rules are left out so a lint stays a few seconds.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "**/dist/**", "frontend/.next/**", "frontend/out/**", "**/test-results/**", "**/*.d.ts", "**/next-env.d.ts"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed names are kept on purpose (a parameter an interface requires, a skipped element).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    files: ["frontend/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    // The rules of hooks and complete dependency lists; the React Compiler's own rules (in the plugin's
    // recommended set since 6.x) judge code written for the compiler, which this UI does not use.
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
);
