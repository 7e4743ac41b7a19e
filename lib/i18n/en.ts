import { portalText } from "./portal-en";

/**
 * Every string the hosted verification pages (`/verify/...`) show, in
 * English. One object, so a language is added by writing another object of
 * the same type (`Messages`, lib/i18n/index.ts) and registering it there.
 * Functions take the values they interpolate; they never receive identity
 * data (names, numbers, dates read from a document).
 */
export const en = {
  meta: {
    title: "Verify your identity",
    description: "A secure identity verification requested by an app you use.",
  },

  common: {
    continue: "Continue",
    tryAgain: "Try again",
    cancel: "Cancel",
    loading: "Loading…",
    working: "Please wait…",
    stepOf: (step: number, total: number) => `Step ${step} of ${total}`,
    attemptsLeft: (n: number) => (n === 1 ? "You have 1 try left." : `You have ${n} tries left.`),
    noAttemptsLeft: "You have no tries left for this step. You can continue; the verification will say this step was not completed.",
    networkError: "We could not reach the server. Check your internet connection and try again.",
    unexpectedError: "Something went wrong on our side. Please try again.",
    rateLimited: "You have tried many times in a short while. Wait a few minutes, then try again.",
  },

  shell: {
    verificationFor: (app: string) => `Identity verification for ${app}`,
    logoAlt: (app: string) => `${app} logo`,
    secure: "Secure verification",
  },

  progress: {
    label: "Verification progress",
    completed: "completed",
    current: "current step",
    upcoming: "not started",
    steps: {
      id_verification: "Identity document",
      liveness: "Selfie video",
      location: "Location",
      face_uniqueness: "Selfie",
      credential: "Licence",
      other: "Check",
    },
  },

  start: {
    heading: (app: string) => `${app} would like to verify your identity`,
    intro: "It takes about two minutes. You will need:",
    needs: {
      id_verification: "an identity document: a passport, an identity card or a driving licence",
      liveness: "a device with a camera, to record a short selfie video",
      face_uniqueness: "a device with a camera, to take a selfie",
      location: "permission to share your location once",
      credential: "your professional licence number",
    },
    checksHeading: "What will be checked",
    checks: {
      id_verification: "That your identity document is genuine, readable and still valid.",
      liveness: "That you are a real person, present right now, by asking you to move your head, blink or smile.",
      face_match: "That your face matches the photo on your document.",
      age: "That you meet the minimum age, from the date of birth on your document.",
      location: "Where you are right now, from your browser, with your permission.",
      face_uniqueness: "That your face has not already been used to verify someone else.",
      credential: "That your professional licence is in your name and valid, in the official registry.",
      other: "An additional check requested by the app.",
    } as Record<string, string>,
    /** A step the person's verified profile already covers (Reusable Verification). */
    reused: "Already verified: this comes from your verified profile, so you will not be asked again.",
    whyHeading: "Why",
    why: (app: string) =>
      `${app} uses these checks to confirm that you are a real person and that you are who you say you are. ${app} receives the result of each check.`,
    privacyHeading: "Your privacy",
    privacy: (app: string) =>
      `What you capture here is sent over an encrypted connection to the identity verification service ${app} uses, and is used only for this verification. Your photos and the details read from your document are stored encrypted and deleted once the verification is decided.`,
    begin: "Start verification",
    resume: "Continue verification",
    expires: (when: string) => `This link works until ${when}.`,
  },

  problems: {
    expired: {
      heading: "This verification link has expired",
      body: (app: string | null) =>
        app
          ? `For your security, verification links only work for a limited time. Go back to ${app} to start a new verification.`
          : "For your security, verification links only work for a limited time. Go back to the app that sent you here to start a new verification.",
    },
    closed: {
      heading: "This verification is already complete",
      body: "There is nothing more to do here. You can close this page.",
    },
    notFound: {
      heading: "We can't find this verification",
      body: "The link may be incomplete or mistyped. Go back to the app that sent you here and open the verification link again.",
    },
    linkIncomplete: {
      heading: "This link is incomplete",
      body: "The verification link is missing its security code. Open the full link you received, or go back to the app that sent you here.",
    },
    network: {
      heading: "We could not load your verification",
      body: "Check your internet connection, then try again.",
    },
    returnTo: (app: string) => `Return to ${app}`,
    crashed: {
      heading: "Something went wrong",
      body: "This page ran into a problem. Your progress is saved: reload the page to continue.",
      reload: "Reload the page",
    },
  },

  camera: {
    opening: "Opening your camera…",
    previewLabel: "Camera preview",
    problems: {
      permission_denied: {
        title: "Camera access is blocked",
        body: "Allow this page to use your camera: select the camera or lock icon next to the address, set Camera to Allow, then try again. On an iPhone or iPad, you can also check Settings > Safari > Camera.",
      },
      not_found: {
        title: "No camera found",
        body: "We could not find a camera on this device. Continue on a phone with a camera, or connect a camera and try again.",
      },
      in_use: {
        title: "Your camera is in use",
        body: "Another app or browser tab is using your camera. Close it (for example a video call), then try again.",
      },
      insecure_context: {
        title: "The camera needs a secure connection",
        body: "Your browser only allows the camera on secure (https) pages. Open the verification link exactly as you received it.",
      },
      blocked_by_embedding: {
        title: "The camera is not available inside this window",
        body: "This page is shown inside another website that does not allow camera access. Open the verification in its own tab to continue.",
      },
      overconstrained: {
        title: "Your camera could not start",
        body: "Your camera does not support the settings we need. Try another camera.",
      },
      unsupported: {
        title: "This browser cannot use the camera",
        body: "Open this page in an up-to-date browser such as Safari, Chrome, Firefox or Edge.",
      },
      unknown: {
        title: "Your camera could not start",
        body: "Something stopped your camera. Check that nothing else is using it, then try again.",
      },
    },
    openInNewTab: "Open in a new tab",
    /** Added on a desktop page that offers the QR hand-off, after a problem another device gets round. */
    orContinueOnPhone: "Or continue on your phone: use the code below.",
    /** On a phone or tablet: how to allow the camera, browser by browser, in plain words. */
    phone: {
      permissionIntro: "This page needs your permission to use the camera. To allow it:",
      browsers: [
        {
          name: "Chrome on Android",
          steps: "Tap the icon to the left of the web address, tap Permissions (or Site settings), set Camera to Allow, then tap Try again below.",
        },
        {
          name: "Safari on iPhone or iPad",
          steps: "Tap aA at the left of the address bar, tap Website Settings, set Camera to Allow, then tap Try again below. If it stays blocked, open the Settings app, tap Safari, then Camera, and choose Ask or Allow.",
        },
      ],
      otherBrowsers: "In another browser, look for the camera or site settings next to the web address.",
      noCamera: "We could not find a camera on this phone. Close any other app that may be using it, then try again.",
      cameraApp: "Or take the picture with your phone's camera app: it comes straight back to this page.",
    },
    /** The file picker that opens the phone's own camera app (`<input type=file accept=image/* capture>`). */
    cameraApp: {
      environment: (side: string) => `Take the photo with your camera app: ${side}`,
      user: "Take a selfie with your camera app",
    },
  },

  handoff: {
    heading: "Continue on your phone",
    noCamera: "This device has no camera we can use. Scan the code with your phone's camera to continue there. This page will follow along and finish when you are done.",
    offer: "Prefer to use your phone? Scan the code with your phone's camera to continue there. This page will follow along.",
    show: "Use my phone instead",
    hide: "Hide the code",
    qrAlt: "QR code that opens this verification on your phone",
    linkWarning: "The code opens this verification for you only. Do not share it.",
    useThisDevice: "Continue on this device anyway",
    waitingHeading: "Continue on your phone",
    waiting: "Follow the steps on your phone. This page updates by itself.",
    stepDone: "done",
    doneCount: (done: number, total: number) => `${done} of ${total} steps done`,
    stepWaiting: "waiting",
    phoneDoneHeading: "You're done on your phone",
  },

  document: {
    heading: "Your identity document",
    intro: "Take a photo of your document or upload one. Make sure the whole document is visible, flat, in good light and without glare.",
    typeLegend: "Which document will you use?",
    types: {
      passport: "Passport",
      id_card: "Identity card",
      driving_licence: "Driving licence",
    } as Record<string, string>,
    sides: {
      passport: { front: { title: "Photo page", hint: "The page with your photo and the two lines of letters and chevrons (<<<) at the bottom." } },
      id_card: {
        front: { title: "Front", hint: "The side with your photo." },
        back: { title: "Back", hint: "The side with the lines of letters and chevrons (<<<) or the barcode." },
      },
      driving_licence: {
        front: { title: "Front", hint: "The side with your photo." },
        back: { title: "Back", hint: "The side with the large barcode." },
      },
    } as Record<string, Record<string, { title: string; hint: string }>>,
    takePhoto: "Take a photo",
    uploadPhoto: "Upload a photo",
    uploadLabel: (side: string) => `Upload a photo: ${side}`,
    takePhotoLabel: (side: string) => `Take a photo: ${side}`,
    retake: "Retake",
    retakeLabel: (side: string) => `Retake: ${side}`,
    capture: "Take the photo",
    frameHint: "Fit the document inside the frame, then take the photo.",
    capturedAlt: (side: string) => `The photo you took: ${side}`,
    submit: "Send my document",
    submitting: "Checking your document… This can take a few seconds.",
    needsAllSides: "Add a photo of each side before you send.",
    tooLarge: "This photo is larger than 20 MB. Choose a smaller photo.",
    notAnImage: "This file is not a photo. Choose a JPEG, PNG or HEIC image.",
    received: "Your document has been checked.",
    review: "Your document has been received. Part of it was hard to read, so a person may look at it.",
    errors: {
      barcode_not_found: "We could not read the barcode on the back. Retake the back flat, in good light, with the whole barcode in the picture.",
      mrz_not_found: "We could not read the lines of letters and chevrons (<<<) on your document. Retake it flat, in good light, without glare.",
      unreadable: "We could not read this document. Retake it flat, in good light, without glare.",
      blurry: "This photo is blurry or too small. Hold still and retake it in good light.",
      no_face: "We could not find the photo of your face on the front. Retake the side with your photo.",
      face_rescan_required: "The photo of your face on the document is not clear: it may be blurry or have glare. Retake the front in good light.",
      type_not_allowed: "This document type is not accepted for this verification. Choose another one.",
      image_too_large: "This photo is larger than 20 MB. Choose a smaller photo.",
      unavailable: "We could not check your document just now. Please try again.",
    },
    whichSide: (side: string) => `Photo to retake: ${side}.`,
  },

  liveness: {
    heading: "Selfie video",
    intro: "We will ask you for a few simple movements (turn or tilt your head, blink or smile) while your camera records a few photos. It takes about 15 seconds.",
    tips: ["Find a well-lit place and remove sunglasses or a hat.", "Hold your phone at eye level.", "Make sure only you are in view."],
    start: "Start the camera",
    startAgain: "Start again",
    stop: "Stop",
    stopped: "Stopped. That used one try. Press Start again when you are ready.",
    eachStartUsesATry: "Each start uses one try, even if you stop.",
    getReady: "Place your face inside the oval and look straight at the camera",
    countdown: (n: number) => `${n}`,
    secondsLeft: (n: number) => (n === 1 ? "1 second" : `${n} seconds`),
    movementOf: (i: number, n: number) => `Movement ${i} of ${n}`,
    actions: {
      turn_left: "Turn your head to your left, then back to the centre",
      turn_right: "Turn your head to your right, then back to the centre",
      blink: "Blink slowly",
      look_up: "Tilt your head back to look up, then back to the centre",
      look_down: "Tilt your head forward to look down, then back to the centre",
      smile: "Smile broadly, then relax your face",
    } as Record<string, string>,
    cues: {
      turn_left: { do: "Turn your head to your left", back: "Now back to the centre" },
      turn_right: { do: "Turn your head to your right", back: "Now back to the centre" },
      blink: { do: "Close your eyes", back: "Open your eyes" },
      look_up: { do: "Tilt your head back and look up", back: "Now back to the centre" },
      look_down: { do: "Tilt your head forward and look down", back: "Now back to the centre" },
      smile: { do: "Smile broadly", back: "Now relax your face" },
    } as Record<string, { do: string; back: string }>,
    sending: "Checking your video… This can take a few seconds.",
    passed: "Done: we could see that you are a real person.",
    failedHeading: "We could not confirm the video",
    failures: {
      action_not_detected: "We could not see the movements we asked for. Follow each instruction as it appears, moving your whole head, not just your eyes.",
      different_person: "The face changed during the video. Make sure only you are in view and stay in the oval.",
      multiple_faces: "We saw more than one face. Make sure only you are in view.",
      no_face: "We lost sight of your face. Keep your face inside the oval for the whole video.",
      face_not_measurable: "We could not see your face clearly. Face the camera in good light.",
      no_frames: "The video did not record. Please try again.",
      spoof_suspected: "We need to see you, not a photo or a screen. Use your own face in front of the camera, in normal light, and try again.",
      colour_response_unclear: "We could not see the screen's coloured light on your face. Turn your screen brightness up, move away from bright light or sunlight, keep your face close to the screen, and try again.",
      other: "We could not confirm the video. Please try again.",
    } as Record<string, string>,
    retryable: {
      no_face: "We could not see a face. Keep your face inside the oval, in good light, and try again.",
      face_rescan_required: "Your face was not clear enough. Face the camera in good light and try again.",
      invalid_image: "The camera pictures could not be read. Please try again.",
      challenge_expired: "That took a little too long. Please start again.",
      invalid_challenge: "That took a little too long. Please start again.",
      liveness_unavailable: "We could not check the video just now. Please try again.",
    } as Record<string, string>,
    ovalLabel: "Oval guide: keep your face inside it",
    /** The colour challenge (docs/hosted-flow.md "Liveness: the colour challenge"). */
    colourLight: {
      warningTitle: "Your screen will flash colours",
      warning:
        "While the camera records, your screen lights up in a few bright colours, one after another, for 10 to 15 seconds. The light on your face shows us you are here right now. If flashing or coloured light can trigger seizures or discomfort for you, use the option below instead.",
      brightness: "Turn your screen brightness up, and avoid direct sunlight.",
      alternative: "I can't look at flashing colours",
      alternativeNote: "You will do the head movements without the coloured light. A person will then review your video instead of an automatic check, which can take longer.",
      unclear: "We could not see the screen's coloured light on your face. Turn your screen brightness up, move away from bright light or sunlight, keep your face close to the screen, and try again.",
      review: "Thank you. A person will review your video; you can continue.",
      /** Face sign-in and seat activation have no review: their alternative is the emailed code, or the organization. */
      scanWarning:
        "While the camera records, your screen lights up in a few bright colours, one after another, for 10 to 15 seconds. If flashing or coloured light can trigger seizures or discomfort for you, do not start the face scan: sign in with an emailed code, or ask your organization for another way.",
    },
  },

  selfie: {
    heading: "Selfie",
    intro: "Take a clear photo of your face, looking straight at the camera, in good light.",
    start: "Start the camera",
    capture: "Take the selfie",
    upload: "Upload a selfie",
    sending: "Checking your selfie…",
    received: "Your selfie has been received.",
    errors: {
      no_face: "We could not find a face. Look straight at the camera and try again.",
      face_rescan_required: "Your face was not clear enough. Face the camera in good light and try again.",
      invalid_image: "This photo could not be read. Please try again.",
      other: "We could not check your selfie. Please try again.",
    } as Record<string, string>,
  },

  location: {
    heading: "Your location",
    intro: (app: string) =>
      `${app} asks where you are right now. When you continue, your browser will ask whether to share your location: choose Allow. Your location is shared once, for this verification only.`,
    share: "Share my location",
    locating: "Getting your location…",
    sent: "Thanks, your location has been shared.",
    problems: {
      permission_denied: {
        title: "Location access is blocked",
        body: "Your browser is not allowing this page to see your location. To allow it, select the lock icon next to the address, set Location to Allow, then try again. If you continue without it, this check will not pass.",
      },
      position_unavailable: {
        title: "Your location is not available",
        body: "Your device could not determine where you are. Turn on location services, move near a window, then try again. If you continue without it, this check will not pass.",
      },
      timeout: {
        title: "Finding your location took too long",
        body: "Try again, ideally with location services turned on. If you continue without it, this check will not pass.",
      },
      unsupported: {
        title: "This browser cannot share your location",
        body: "Try an up-to-date browser or your phone. If you continue without it, this check will not pass.",
      },
    },
    continueWithout: "Continue without sharing",
  },

  credential: {
    heading: "Your professional licence",
    intro: (app: string) =>
      `${app} asks to check your professional licence in the official registry. The licence must be in the name on the identity document you verified.`,
    loadingStates: "Loading the states…",
    loadingLicences: "Loading the licences for this state…",
    stateLabel: "State where the licence was issued",
    statePlaceholder: "Choose a state",
    licenceLabel: "Licence",
    licencePlaceholder: "Choose your licence",
    /** One licence a registry checks: its name and who keeps the register. */
    licenceOption: (credential: string, provider: string) => `${credential} — ${provider}`,
    noStates: "No licence registry is available for this verification. You can continue; the verification will say your licence was not checked.",
    noLicences: "No licence of the accepted types can be checked in this state. Choose another state.",
    fields: {
      license_number: { label: "Licence number", hint: "As it appears on your licence or in the registry." },
      npi_number: { label: "NPI number", hint: "Your 10-digit National Provider Identifier." },
    },
    fieldErrors: {
      empty: { license_number: "Enter your licence number.", npi_number: "Enter your NPI number." },
      invalid: {
        license_number: "Use only letters, digits, spaces, dots, dashes and slashes, at most 40 characters.",
        npi_number: "This is not a valid NPI number: it has 10 digits. Check it and try again.",
      },
    },
    chooseState: "Choose the state where your licence was issued.",
    chooseLicence: "Choose your licence.",
    fixFields: "Check the highlighted details, then try again.",
    notAccepted: "This licence cannot be checked for this verification. Choose another one.",
    submit: "Check my licence",
    checking: "Checking your licence in the registry… This can take a few seconds.",
    /** `type`: the licence type; `state`: the state's name; `until`: a formatted date. */
    passed: (type: string, state: string, until: string | null) =>
      until ? `Licence verified: ${type}, ${state}, valid until ${until}.` : `Licence verified: ${type}, ${state}, no expiry published.`,
    failedHeading: "We could not verify your licence",
    reviewHeading: "We could not reach the registry",
    failures: {
      license_not_found: "The registry has no licence with this number. Check the number, the state and the licence type, then try again.",
      license_holder_mismatch:
        "This licence is registered to someone else, not to the person on the identity document you verified. Check the number, then try again.",
      license_expired: "The registry lists this licence as expired. Renew it with the licensing board, then verify again.",
      registry_unavailable: "The licence registry did not answer just now. Try again in a moment, or continue: a person will check your licence.",
      other: "Your licence could not be verified. Check the details and try again.",
    } as Record<string, string>,
    /** `license_inactive`, by the status the registry gives. */
    inactive: {
      suspended: "The registry lists this licence as suspended. Contact the licensing board.",
      revoked: "The registry lists this licence as revoked. Contact the licensing board.",
      inactive: "The registry lists this licence as inactive. Contact the licensing board.",
    } as Record<string, string>,
    continueWithout: "Continue without a verified licence",
    kycRequired: {
      title: "Your identity document is not verified",
      body: "Your licence can only be checked once your identity document has been verified, so we can compare the names. You can continue; the verification will say your licence was not checked.",
    },
    alreadyVerified: "Your licence is already verified.",
    noAttemptsLeft: {
      title: "No licence checks left",
      body: "You have used all the licence checks for this verification. You can continue; the verification will say your licence was not verified.",
    },
  },

  /** The page that replaces the flow once a check decided the session (a failed document, an age under the minimum). */
  stopped: {
    heading: "We could not verify you",
    reasons: {
      under_minimum_age: (app: string) => `The date of birth on your document shows that you are younger than the minimum age ${app} requires.`,
      missing_dob: () => "We could not find a date of birth on your document, so we could not confirm your age.",
      document_expired: () => "The document you used has expired.",
      document_inconsistent: () => "The details on the front of your document do not match the ones in its barcode or its lines of letters and chevrons (<<<).",
      check_digits_invalid: () => "We could not confirm that your document is genuine: its control numbers do not add up.",
      other: () => "Your document could not be verified.",
    } as Record<string, (app: string) => string>,
    skipped: "Your verification stopped here: the remaining steps could not change this result, so you will not be asked to do them.",
    whatNext: (app: string) =>
      `${app} has been told the result. If you think this is a mistake, or you want to try again with another document, contact ${app}: they can start a new verification for you.`,
    returnTo: (app: string) => `Return to ${app}`,
    closeTab: "You can close this page.",
  },

  finish: {
    submitting: "Sending your verification…",
    heading: "Thank you",
    complete: (app: string) => `Your verification is complete. ${app} will receive the result.`,
    review: (app: string) => `Your verification has been submitted. A person will review it, and ${app} will let you know the result.`,
    redirecting: (app: string, seconds: number) => `Taking you back to ${app} in ${seconds}…`,
    returnNow: (app: string) => `Return to ${app} now`,
    closeTab: "You can close this page.",
    phoneDone: "You can now go back to your computer: it will continue from there.",
  },

  billing: {
    /** The line item a developer sees on Stripe's Checkout page when topping up the wallet. */
    topUpProductName: "Wallet top-up",
    topUpProductDescription: (organization: string) => `Prepaid credit for identity verification checks (${organization})`,
  },
  /** The developer portal (lib/i18n/portal-en.ts). */
  portal: portalText,
};

export type Messages = typeof en;
