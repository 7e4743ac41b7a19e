import { db } from "@/lib/db/client";
import { redis } from "@/lib/redis/client";
import { ApiError } from "@/lib/http/api-error";

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function probe(fn: () => Promise<unknown>): Promise<{ status: "ok" | "error"; error?: string }> {
  try {
    await withTimeout(fn(), 3000);
    return { status: "ok" };
  } catch (err) {
    return { status: "error", error: (err as Error).message };
  }
}

/** GET /api/health: database and (when configured) Redis reachability. 503 when one is down. */
export async function checkHealth() {
  const database = await probe(async () => (await db()).$queryRaw`SELECT 1`);
  const client = redis();
  const redisStatus = client ? await probe(() => client.ping()) : { status: "not_configured" as const };
  const data = { status: "ok", database, redis: redisStatus };
  if (database.status !== "ok" || redisStatus.status === "error") {
    throw new ApiError("service_unavailable", { data: { ...data, status: "degraded" } });
  }
  return data;
}
