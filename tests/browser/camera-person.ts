import type { Page } from "playwright-core";
import { verifyMessages, verifyText } from "../support/verify-text";
import { CAMERA_HEIGHT, CAMERA_WIDTH, personAPictures, type HeadPose } from "../fixtures/camera/generate-camera";
import { detectedFaceBoxes, type FaceBox } from "../support/screen-light";

/**
 * A test "person" in front of the page's camera, for the liveness step.
 *
 * Chromium's file camera (`--use-file-for-fake-video-capture`) plays one
 * fixed video per browser launch, so it cannot follow instructions, while
 * the server picks a new random order of actions for every challenge (and
 * every challenge is an attempt). Instead, in the test only, the page's
 * camera becomes a canvas (`canvas.captureStream()`): the page's
 * `navigator.mediaDevices.getUserMedia` first asks the browser as usual
 * (permission and device checks stay real), then returns the canvas's
 * stream instead of the device's. On the canvas, person A (the pictures of
 * tests/fixtures/camera/generate-camera.ts) does what the page's instruction
 * on screen says, like a person reading it: the cue line
 * (`data-testid="liveness-cue"`) is watched, and a short reaction time later
 * the head turns to the side the cue names, and comes back to the centre
 * for any other text. The page takes its frames on its own schedule
 * (components/verify/liveness/burst-schedule.ts) and the server judges them,
 * as for any person.
 *
 * `performs: "reverse"` is a person who does the wrong action every time:
 * left for right and right for left, up for down and down for up, a turn to
 * the left for a smile; the attempt must fail.
 *
 * Person A has real pictures for every action but blink
 * (tests/fixtures/camera/generate-camera.ts: no picture of him with closed
 * eyes): a blink cue leaves him at rest, so the tests' workflows leave it out.
 *
 * LIGHT (the colour challenge, docs/hosted-flow.md "Liveness: the colour challenge"). While
 * the page shows its colour overlay, the person sits in one room (each picture's colour balanced to the resting
 * picture's, as tests/support/screen-light.ts explains: the pictures come
 * from differently lit photographs) and, with `light: "screen"` (default),
 * the page's coloured screen lights the face: while the page shows its
 * colour overlay (`data-testid="colour-light"`, its `data-colour`), each
 * camera picture is multiplied in linear light by (1 + 0.3 x that colour),
 * exposure kept, as a screen 30 cm away in an ordinarily lit room would. `light:
 * "steady"` is a recording that ignores the screen (the room's light only);
 * `light: "recorded"` a recording of a live burst made under other colours
 * (an earlier challenge's), replayed with the same timing: its light changes
 * when the page's does, to the recorded colours.
 */
export type Performs = "as_asked" | "reverse";
export type PersonLight = "screen" | "steady" | "recorded";
/** The colours lighting the face of the `recorded` person, one per colour change of the page. */
const RECORDED_COLOURS = ["#00ffff", "#ff00ff", "#00ff00", "#ffff00", "#0000ff", "#ff0000", "#00ffff", "#ff00ff"];
/** The screen's light on the face relative to the room's (tests/support/screen-light.ts). */
const SCREEN_STRENGTH = 0.3;

export type PersonLog = Array<{ at: number; cue: string; pose: HeadPose }>;

/** The pose person A takes for each action he can perform. */
export const POSE_OF_ACTION: Record<string, HeadPose> = {
  turn_left: "turned_left",
  turn_right: "turned_right",
  look_up: "looking_up",
  look_down: "looking_down",
  smile: "smiling",
};
/** The wrong action a `reverse` person does instead. */
export const WRONG_ACTION: Record<string, string> = { turn_left: "turn_right", turn_right: "turn_left", look_up: "look_down", look_down: "look_up", smile: "turn_left" };

/** The pose for each cue text the page can show (every other text: back to rest). */
function cuePoses(performs: Performs): Record<string, HeadPose> {
  return Object.fromEntries(
    Object.keys(POSE_OF_ACTION).map((action) => [verifyText(`liveness.cues.${action as keyof typeof verifyMessages.liveness.cues}.do`), POSE_OF_ACTION[performs === "as_asked" ? action : WRONG_ACTION[action]!]!]),
  );
}

type FaceBoxes = Record<HeadPose, FaceBox[]>;
let pictures: Promise<{ urls: Record<HeadPose, string[]>; boxes: FaceBoxes }> | null = null;

/** Person A's pictures as data URLs, and the face box the server's engine finds in each (for the one-room balance). */
function pictureUrls() {
  pictures ??= personAPictures().then(async (pngs) => {
    const entries = Object.entries(pngs) as Array<[HeadPose, Buffer[]]>;
    const found = await detectedFaceBoxes(entries.flatMap(([, list]) => list));
    let next = 0;
    return {
      urls: Object.fromEntries(entries.map(([pose, list]) => [pose, list.map((png) => `data:image/png;base64,${png.toString("base64")}`)])) as Record<HeadPose, string[]>,
      boxes: Object.fromEntries(entries.map(([pose, list]) => [pose, list.map(() => found[next++]!)])) as FaceBoxes,
    };
  });
  return pictures;
}

/** Puts person A in front of the camera of every page this page opens (call before `goto`). */
export async function personInFrontOfCamera(page: Page, options: { performs: Performs; reactionMs?: number; light?: PersonLight }) {
  const { urls, boxes } = await pictureUrls();
  await page.addInitScript(cameraPerson, {
    pictures: urls,
    boxes,
    cues: cuePoses(options.performs),
    reactionMs: options.reactionMs ?? 300,
    light: { mode: options.light ?? "screen", strength: SCREEN_STRENGTH, recorded: RECORDED_COLOURS },
    width: CAMERA_WIDTH,
    height: CAMERA_HEIGHT,
  });
}

/** What the person did (cue read, pose taken, ms after the page's start), for a failure's explanation. */
export async function personLog(page: Page): Promise<PersonLog> {
  return page.evaluate(() => (window as unknown as { __cameraPerson?: { log: PersonLog } }).__cameraPerson?.log ?? []);
}

type PersonSetup = {
  pictures: Record<HeadPose, string[]>;
  boxes: FaceBoxes;
  cues: Record<string, HeadPose>;
  reactionMs: number;
  light: { mode: PersonLight; strength: number; recorded: string[] };
  width: number;
  height: number;
};

/** Runs inside the page, before its own scripts. Self-contained: no closure over this module. */
function cameraPerson({ pictures, boxes, cues, reactionMs, light, width, height }: PersonSetup) {
  const mediaDevices = navigator.mediaDevices;
  if (!mediaDevices?.getUserMedia) return;
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d")!;
  const images = Object.fromEntries(
    Object.entries(pictures).map(([pose, urls]) => [
      pose,
      urls.map((url) => {
        const img = new Image();
        img.src = url;
        return img;
      }),
    ]),
  ) as Record<HeadPose, HTMLImageElement[]>;
  const loaded = Promise.all(Object.values(images).flat().map((img) => img.decode()));
  const log: PersonLog = [];
  (window as unknown as { __cameraPerson: { log: PersonLog } }).__cameraPerson = { log };

  let pose: HeadPose = "frontal";
  let picture = 0;

  // --- Light: one room, and the screen's colour on the face (see LIGHT above) ---
  const toLinear = Array.from({ length: 256 }, (_, v) => (v / 255 <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
  const toSrgb = (x: number) => Math.max(0, Math.min(255, Math.round(255 * (x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055))));
  const luminance = (c: number[]) => 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
  const hexLinear = (hex: string) => [1, 3, 5].map((i) => toLinear[parseInt(hex.slice(i, i + 2), 16)]!);
  /**
   * The picture's skin colour as the vision worker measures it (workers/skin-colour.mjs: the inner face of the
   * face box the server's engine found in it, clipped and shadowed pixels left out).
   */
  const skinColour = (img: HTMLImageElement, [bx, by, bw, bh]: FaceBox) => {
    ctx.drawImage(img, 0, 0, width, height);
    const { data } = ctx.getImageData(Math.round(bx + 0.25 * bw), Math.round(by + 0.4 * bh), Math.round(0.5 * bw), Math.round(0.45 * bh));
    const sum = [0, 0, 0];
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i]! >= 250 || data[i + 1]! >= 250 || data[i + 2]! >= 250) continue;
      const px = [0, 1, 2].map((c) => toLinear[data[i + c]!]!);
      if (luminance(px) < 0.005) continue;
      for (let c = 0; c < 3; c++) sum[c]! += px[c]!;
      n++;
    }
    return sum.map((x) => x / Math.max(1, n));
  };
  const balance = new Map<HTMLImageElement, number[]>();
  const balanced = loaded.then(() => {
    const room = skinColour(images.frontal[0]!, boxes.frontal[0]!);
    for (const [pose, list] of Object.entries(images) as Array<[HeadPose, HTMLImageElement[]]>) {
      list.forEach((img, i) => {
        const own = skinColour(img, boxes[pose][i]!);
        balance.set(img, room.map((r, c) => ((r / luminance(room)) * luminance(own)) / own[c]!));
      });
    }
  });
  let shownColour: string | null = null;
  let changes = 0;
  /** The colour lighting the face now: the page's overlay, or the recording's colour for the same moment. */
  const faceLight = (): string | null => {
    const overlay = document.querySelector('[data-testid="colour-light"]')?.getAttribute("data-colour") ?? null;
    if (overlay !== shownColour) {
      shownColour = overlay;
      if (overlay) changes++;
    }
    if (light.mode === "steady" || !overlay) return null;
    return light.mode === "screen" ? overlay : light.recorded[(changes - 1) % light.recorded.length]!;
  };
  /** Without the page's colour overlay (no colour challenge), the pictures are shown as they are. */
  const lightUp = (img: HTMLImageElement) => {
    const colour = faceLight();
    if (shownColour === null) return;
    const screen = colour ? hexLinear(colour).map((e) => 1 + light.strength * e) : [1, 1, 1];
    const gain = (balance.get(img) ?? [1, 1, 1]).map((b, c) => (b * screen[c]!) / luminance(screen));
    const frame = ctx.getImageData(0, 0, width, height);
    const d = frame.data;
    const luts = gain.map((g) => Uint8ClampedArray.from(toLinear, (x) => toSrgb(x * g)));
    for (let i = 0; i < d.length; i += 4) {
      d[i] = luts[0]![d[i]!]!;
      d[i + 1] = luts[1]![d[i + 1]!]!;
      d[i + 2] = luts[2]![d[i + 2]!]!;
    }
    ctx.putImageData(frame, 0, 0);
  };
  // --- end of light ---

  // Like a camera at 15 frames per second: the current pose, with a little jitter from one picture to the next.
  const draw = () => {
    const variants = images[pose];
    const img = variants[picture++ % variants.length]!;
    ctx.drawImage(img, 0, 0, width, height);
    lightUp(img);
  };

  // The person reads the instruction on screen and, a moment later, moves.
  let lastCue = "";
  const readInstruction = () => {
    const cue = document.querySelector('[data-testid="liveness-cue"]')?.textContent ?? "";
    if (cue === lastCue) return;
    lastCue = cue;
    const next = cues[cue] ?? "frontal";
    window.setTimeout(() => {
      if (lastCue !== cue) return;
      pose = next;
      log.push({ at: Math.round(performance.now()), cue, pose });
    }, reactionMs);
  };
  new MutationObserver(readInstruction).observe(document, { subtree: true, childList: true, characterData: true });

  let camera: number | null = null;
  const original = mediaDevices.getUserMedia.bind(mediaDevices);
  mediaDevices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    // The browser's own answer first: a blocked permission or a missing camera fails as it would.
    const device = await original(constraints);
    if (!constraints?.video) return device;
    device.getVideoTracks().forEach((track) => track.stop());
    await balanced;
    draw();
    camera ??= window.setInterval(draw, 1000 / 15);
    return canvas.captureStream(15);
  };
}
