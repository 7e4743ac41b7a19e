import { randomBytes } from "node:crypto";

export const REQUEST_ID_HEADER = "X-Request-Id";

export function newRequestId(): string {
  return `req_${randomBytes(12).toString("hex")}`;
}
