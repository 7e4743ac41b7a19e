import { ClientClosedRequest, type CoreRequest } from "../core/request";

/**
 * What both adapters do around reading a body.
 *
 * A body over the route's limit is refused (413), but a client that is still
 * writing it must be able to read that answer: a server that closes while
 * unread bytes arrive makes the client's TCP stack reset the connection, and
 * the client sees a broken pipe instead of the 413. So a body that overruns
 * the limit by at most DRAIN_BEYOND_CAP is read to its end and dropped, and
 * the connection stays usable (Go's net/http drains 256 KB the same way;
 * nginx lingers). A body declared or sent further over the limit is refused
 * without reading the rest, and its answer closes the connection, since the
 * unread rest would stall the next request on it.
 */
export const DRAIN_BEYOND_CAP = 2 * 1024 * 1024;

/** A body read within `cap`, or refused: "drained" (read to its end and dropped) or "unread" (the rest never read). */
export type BodyRead = { bytes: Uint8Array } | { refused: "drained" | "unread" };

/** Whether a body of `length` bytes over `cap` is still read to its end before the refusal. */
export const drainable = (length: number, cap: number) => length <= cap + DRAIN_BEYOND_CAP;

export type TrackedBody = Pick<CoreRequest, "readBody"> & { abandonedBody(): boolean };

/** `readBody` for the core (null: over the limit), remembering whether the refused body was left unread; a failure of the stream is ClientClosedRequest. */
export function trackBody(read: (cap: number) => Promise<BodyRead>): TrackedBody {
  let abandoned = false;
  return {
    async readBody(cap) {
      let result: BodyRead;
      try {
        result = await read(cap);
      } catch (err) {
        throw new ClientClosedRequest(err);
      }
      if ("bytes" in result) return result.bytes;
      if (result.refused === "unread") abandoned = true;
      return null;
    },
    abandonedBody: () => abandoned,
  };
}
