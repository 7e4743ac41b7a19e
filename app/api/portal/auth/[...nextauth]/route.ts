import { apiRoute, routeMethods } from "@/lib/http/api-route";
import { serveNextAuth } from "@/lib/portal/next-auth-route";

/** next-auth 4 for the developer portal (lib/portal/auth-options.ts), through the one HTTP core. */
const nextAuth = apiRoute({ auth: "none", rawBody: true, bodyLimit: 16 * 1024 }, ({ req, params }) => serveNextAuth(req, params.nextauth ?? ""));

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: nextAuth, POST: nextAuth });
