type NavigatorWithHints = Navigator & { userAgentData?: { mobile?: boolean } };

/**
 * A phone or tablet (docs/hosted-flow.md "Hosted flow on phones"): the browser says so
 * (`navigator.userAgentData.mobile`, Chromium's client hint), or its user
 * agent names a mobile system (Android, iPhone, iPad, "Mobile"), or it is an
 * iPad presenting itself as a Mac (a "Macintosh" with a touch screen), or
 * its only pointer is a finger (`pointer: coarse` and no fine pointer at
 * all). Chromium's mobile emulation (a phone's user agent, touch, a mobile
 * viewport) answers true; a laptop with a touch screen answers false (its
 * primary pointer is fine).
 */
export function isPhoneLike(): boolean {
  const nav = navigator as NavigatorWithHints;
  if (nav.userAgentData?.mobile) return true;
  const ua = nav.userAgent ?? "";
  if (/Android|iPhone|iPad|iPod|Mobile/i.test(ua)) return true;
  if (/Macintosh/.test(ua) && nav.maxTouchPoints > 1) return true;
  return typeof window.matchMedia === "function" && window.matchMedia("(pointer: coarse)").matches && !window.matchMedia("(any-pointer: fine)").matches;
}
