import { z } from "zod";
import { TEST_EVENT_KINDS } from "./test-events";

export const TestEventBody = z.strictObject({
  kind: z.enum(TEST_EVENT_KINDS, { message: `One of ${TEST_EVENT_KINDS.join(", ")}` }),
});

export const DeliveriesQuery = z.object({
  limit: z.coerce.number().int("limit must be a whole number").min(1).max(1000).default(100),
});
