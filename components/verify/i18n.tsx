"use client";

import type { useTranslations } from "next-intl";

/**
 * The hosted pages' text is next-intl's: a client component calls
 * `useTranslations("verify")` (messages/<locale>.json, namespace `verify`;
 * the page's layout provides only its own language, see
 * components/verify/person-text-provider.tsx). Plain functions that turn an
 * API answer into a sentence take the translator as their first argument.
 */
export type VerifyTranslator = ReturnType<typeof useTranslations<"verify">>;
