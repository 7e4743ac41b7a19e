import { ClientClosedRequest, type CoreRequest } from "../core/request";

/**
 * What both adapters do around reading a body: remember whether it was
 * refused as too large (the answer then closes the connection, since the
 * rest of the body was never read and would stall the next request on it),
 * and turn a failure of the stream into ClientClosedRequest.
 */
export type TrackedBody = Pick<CoreRequest, "readBody"> & { abandonedBody(): boolean };

export function trackBody(read: (cap: number) => Promise<Uint8Array | null>): TrackedBody {
  let abandoned = false;
  return {
    async readBody(cap) {
      let body: Uint8Array | null;
      try {
        body = await read(cap);
      } catch (err) {
        throw new ClientClosedRequest(err);
      }
      if (body === null) abandoned = true;
      return body;
    },
    abandonedBody: () => abandoned,
  };
}
