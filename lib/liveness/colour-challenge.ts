import { randomInt } from "node:crypto";

/**
 * The colour challenge (docs/hosted-flow.md "Liveness: the colour challenge"): for each
 * liveness challenge the server draws a random sequence of screen colours,
 * one per burst frame. The page lights the screen with colour k while it
 * takes frame k; the light the face reflects must follow that sequence
 * (lib/liveness/colour-response.ts), which a recording made before the
 * challenge was issued cannot do. The sequence is stored with the challenge
 * and the verdict reads the server's copy, never the client's.
 */

/** Clearly distinct, fully saturated screen colours (sRGB hex): three primaries and their complements. */
export const SCREEN_COLOURS = ["#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff"] as const;
export type ScreenColour = (typeof SCREEN_COLOURS)[number];

/**
 * Draws one colour per frame of the largest burst (`count`, 8): each colour
 * differs from the two before it, so any 3 consecutive frames show 3
 * different colours and a burst of any allowed length (3 to 8 frames) has
 * light to follow. 6 x 5 x 4^6 = 122,880 sequences of 8 (crypto randomness).
 */
export function drawColours(count: number, random: (max: number) => number = randomInt): ScreenColour[] {
  const drawn: ScreenColour[] = [];
  for (let i = 0; i < count; i++) {
    const recent = drawn.slice(-2);
    const choices = SCREEN_COLOURS.filter((c) => !recent.includes(c));
    drawn.push(choices[random(choices.length)]!);
  }
  return drawn;
}

/** An emitted colour in linear light (0-1 per channel), from its sRGB hex. */
export function linearRgb(hex: string): [number, number, number] {
  const value = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!value) throw new Error(`Not a colour: ${hex}`);
  const n = parseInt(value[1]!, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => srgbToLinear(v / 255)) as [number, number, number];
}

/** The sRGB transfer function, inverted: an 8-bit-scaled value (0-1) to linear light. */
export function srgbToLinear(v: number): number {
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
}
