import "server-only";
import { Prisma } from "@/generated/prisma/client";

/** Whether a Prisma call failed on a unique constraint (P2002): another writer got there first. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}
