/**
 * Every string of the sign-in, consent, logout and error pages and of the
 * sign-in mail, in one module so it can move into lib/i18n as a whole.
 */
export const STRINGS = {
  errorPage: {
    title: "Sign-in error",
    heading: "This sign-in request cannot continue",
  },
  logoutPage: {
    title: "Signed out",
    heading: "You are signed out",
    message: "The app's access to your account from this sign-in has ended. You can close this page.",
  },
  interactionGone: {
    title: "Sign-in expired",
    heading: "This sign-in request is no longer valid",
    message:
      "It has expired, was already completed, or was opened in another browser. Go back to the app and start signing in again.",
  },
  framed: {
    heading: "This page cannot be shown inside another page",
    message: "Open the sign-in page in its own browser window.",
  },
  layout: {
    brand: "Identity Verification",
    continueTo: (app: string) => `to continue to ${app}`,
    logoAlt: (app: string) => `${app} logo`,
    testApp: "Test app",
  },
  email: {
    title: "Sign in",
    heading: "Sign in",
    intro: "Enter your email address. We will send you a one-time code to sign in. No password needed.",
    label: "Email address",
    submit: "Send code",
    cancel: "Cancel and go back to the app",
    mailNotConfigured:
      "Sign-in by email is not available: this installation has no mail server configured (SMTP). Ask its administrator to set it up.",
    face: "Sign in with my face instead",
    faceOnly: "Sign in with my face",
    devConsole:
      "Development mode without a mail server: the code is written to the server console instead of being emailed.",
  },
  code: {
    title: "Enter your code",
    heading: "Check your email",
    intro: (email: string) => `We sent a 6-digit code to ${email}. It is valid for 10 minutes.`,
    label: "6-digit code",
    hint: "Enter the digits only.",
    submit: "Sign in",
    resend: "Send a new code",
    otherEmail: "Use a different email address",
  },
  face: {
    title: "Sign in with your face",
    heading: "Sign in with your face",
    intro: (email: string) => `Signing in as ${email}.`,
    how: "Look at the camera and follow the instructions for about 10 seconds. We check that you are a live person and that you are the person who verified this account.",
    onlyIfVerified: "This works if you verified your identity with us before, with a selfie video. Otherwise, use an emailed code.",
    triesLeft: (n: number) => (n === 1 ? "You have 1 try left." : `You have ${n} tries left.`),
    start: "Start the camera",
    tryAgain: "Try again",
    checking: "Checking your face… This can take a few seconds.",
    signedIn: "It is you. Signing you in…",
    noTries: "No face scans are left for this sign-in. Use an emailed code instead.",
    failed: "Something went wrong. Try again, or use an emailed code.",
    useCode: "Email me a code instead",
  },
  consent: {
    title: "Allow sign-in",
    heading: (app: string) => `Sign in to ${app}?`,
    signedInAs: (email: string) => `You are signed in as ${email}.`,
    switchAccount: "Use another account",
    intro: (app: string) =>
      `${app} will learn your account id. It receives no other personal details at sign-in; with your permission below it can later read:`,
    nothingElse: "Nothing else: only that you signed in.",
    allow: "Allow",
    deny: "Deny",
    note: "You can sign out of the app at any time; that ends its access.",
  },
  scopes: {
    openid: "Your account id (to recognise you)",
    profile: "Your email address, your name (as verified on your identity document, or as you gave it) and whether your identity is verified",
    verifications: "Whether you passed identity and liveness checks, and your licences' verification status",
    zkp: "Proofs about you (such as being over 18) without the underlying details",
    doctor_license: "Your professional licences: their type, number, issuing board, status and expiry",
  } as Record<string, string>,
  messages: {
    otp_invalid: (left: number) =>
      left > 0 ? `That code is not right. ${left} ${left === 1 ? "attempt" : "attempts"} left.` : "That code is not right.",
    otp_locked: "Too many wrong codes. Request a new code.",
    otp_expired: "That code has expired. Request a new code.",
    otp_not_found: "Request a code first.",
    code_format: "Enter the 6 digits of the code.",
    email_invalid: "Enter a valid email address, like name@example.com.",
    too_many_codes: "Too many codes were requested. Wait a few minutes, then try again.",
    mail_failed: "The code could not be sent. Try again in a moment.",
    mail_not_configured: "Sign-in by email is not available: no mail server is configured.",
    code_sent: (email: string) => `A new code was sent to ${email}.`,
    csrf: "The form expired. Please try again.",
  },
  mail: {
    subject: (code: string) => `${code} is your sign-in code`,
    text: (code: string, app: string) =>
      [
        `Your sign-in code for ${app} is:`,
        "",
        `    ${code}`,
        "",
        "It is valid for 10 minutes and can be used once.",
        "If you did not try to sign in, ignore this email: nobody can sign in without the code.",
      ].join("\n"),
  },
} as const;
