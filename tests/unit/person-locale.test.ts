import { describe, expect, it } from "vitest";
import { choosePersonLocale, personLocaleFor, personLocaleOfRequest } from "@/lib/i18n/choose-person-locale";
import { PERSON_LOCALE_HEADER, textDirection } from "@/lib/i18n/locales";

describe("the language of a person-facing page", () => {
  it("a BCP 47 tag is served by the supported language CLDR matches to it", () => {
    expect(personLocaleFor("fr")).toBe("fr");
    expect(personLocaleFor("fr-CA")).toBe("fr");
    expect(personLocaleFor("PT")).toBe("pt-BR");
    expect(personLocaleFor("iw")).toBe("he");
    expect(personLocaleFor("zh-Hans-CN")).toBe("zh-CN");
    expect(personLocaleFor("en-GB")).toBe("en");
  });

  it("a tag that is not well formed, or that no supported language serves, is refused", () => {
    for (const tag of ["", "x", "not a tag", "fr_FR_", "sr", "sw", "tlh"]) expect(personLocaleFor(tag), tag).toBeNull();
  });

  it("the person's choice beats the app's request, which beats the browser's languages in their order, then the app's default, then English", () => {
    expect(choosePersonLocale({ chosen: "de", requested: "fr", acceptLanguage: "es" })).toBe("de");
    expect(choosePersonLocale({ requested: "fr", acceptLanguage: "es" })).toBe("fr");
    expect(choosePersonLocale({ acceptLanguage: "sw;q=1, ja;q=0.9, es;q=0.8" })).toBe("ja");
    expect(choosePersonLocale({ acceptLanguage: "es;q=0.5, ar-EG;q=0.9" })).toBe("ar");
    expect(choosePersonLocale({ acceptLanguage: "sw, *", appDefault: "it" })).toBe("it");
    expect(choosePersonLocale({})).toBe("en");
    expect(choosePersonLocale({ chosen: "klingon", acceptLanguage: "nl-BE" })).toBe("nl");
  });

  it("layouts trust only a supported language in the proxy's header; Arabic and Hebrew read right to left", () => {
    expect(personLocaleOfRequest(new Headers({ [PERSON_LOCALE_HEADER]: "he" }))).toBe("he");
    expect(personLocaleOfRequest(new Headers({ [PERSON_LOCALE_HEADER]: "<script>" }))).toBe("en");
    expect(personLocaleOfRequest(new Headers())).toBe("en");
    expect(textDirection("ar")).toBe("rtl");
    expect(textDirection("he")).toBe("rtl");
    expect(textDirection("ja")).toBe("ltr");
  });
});
