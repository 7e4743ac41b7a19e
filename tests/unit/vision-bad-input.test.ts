import { afterAll, expect, it } from "vitest";
import { analyseFaces, closeVisionPool, readMrz, readPdf417, warmVision } from "@/lib/vision/pool";
import { fixture } from "../support/images";

/**
 * The vision worker's own word on an image that does not decode (issue
 * 33.1): the routes refuse such images before queueing them
 * (lib/images/inspect-image.ts; tests/operations/server-process.test.ts),
 * and should one reach a worker anyway it is the sender's 422
 * `invalid_image`, not the engine's failure, and the thread keeps the
 * models it loaded.
 */
process.env.VISION_THREADS = "1";
afterAll(() => closeVisionPool());

it("a JPEG cut in half is invalid_image from every task, and the next image is read by the models already loaded", { timeout: 180_000 }, async () => {
  const whole = fixture("faces", "a-still", "1.jpg");
  const cut = whole.subarray(0, whole.length >> 1);
  await expect(analyseFaces(cut)).rejects.toMatchObject({ code: "invalid_image", status: 422 });
  await expect(readPdf417(cut)).rejects.toMatchObject({ code: "invalid_image", status: 422 });
  await expect(readMrz(cut)).rejects.toMatchObject({ code: "invalid_image", status: 422 });
  const analysis = await analyseFaces(whole);
  expect(analysis.faces).toHaveLength(1);
  expect((await warmVision()).loads).toBe(1);
});
